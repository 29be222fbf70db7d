import { Flex } from '@radix-ui/themes/components/flex';
import { Skeleton } from '@radix-ui/themes/components/skeleton';
import { Text } from '@radix-ui/themes/components/text';
import { useTranslation } from '../../engine/i18n/use-translation.js';

/** The Suspense fallback of lazy routes: a full-height skeleton saying 'Loading...'. */
export function LoadingPage() {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="4" p="5" minHeight="100vh" width="100%" role="status" aria-live="polite" aria-busy="true">
      <Text size="2" color="gray">
        {t('common.loading')}
      </Text>
      <Skeleton height="32px" width="40%" />
      <Skeleton height="16px" width="70%" />
      <Skeleton height="16px" width="60%" />
      <Skeleton height="240px" width="100%" />
    </Flex>
  );
}

export default LoadingPage;
