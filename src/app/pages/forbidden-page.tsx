import { LockClosedIcon } from '@radix-ui/react-icons';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { usePageTitle } from '../use-page-title.js';

/** 403: 'Access Forbidden', the explanation, and Go Back one step. */
export function ForbiddenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('pages.titles.forbidden');
  return (
    <Flex direction="column" align="center" justify="center" gap="4" p="6" minHeight="100vh" asChild>
      <main>
        <LockClosedIcon width={48} height={48} color="var(--red-9)" aria-hidden />
        <Heading as="h1" size="7" align="center">
          {t('pages.forbidden.heading')}
        </Heading>
        <Text color="gray" align="center" style={{ maxWidth: 520 }}>
          {t('pages.forbidden.text')}
        </Text>
        <Button size="3" onClick={() => void navigate(-1)}>
          {t('pages.forbidden.goBack')}
        </Button>
      </main>
    </Flex>
  );
}

export { ForbiddenPage as Component };
export default ForbiddenPage;
