import { Button } from '@radix-ui/themes/components/button';
import * as Callout from '@radix-ui/themes/components/callout';
import { Flex } from '@radix-ui/themes/components/flex';
import { Heading } from '@radix-ui/themes/components/heading';
import { Text } from '@radix-ui/themes/components/text';
import { useRouteError } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { APP_TITLE_KEY } from '../use-page-title.js';

/** The generic render-failure fallback: 'Something went wrong.' with a way out. */
export function ErrorFallback({ error }: { error?: unknown }) {
  const { t } = useTranslation();
  if (error) console.error(error);
  return (
    <Flex direction="column" align="center" justify="center" gap="4" p="6" minHeight="60vh" role="alert">
      <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="var(--red-9)" strokeWidth="2" aria-hidden>
        <path d="M12 3 2 21h20L12 3z" strokeLinejoin="round" />
        <path d="M12 10v5M12 18v.5" strokeLinecap="round" />
      </svg>
      <Heading as="h1" size="6">
        {t('errors.somethingWentWrong')}
      </Heading>
      <Callout.Root color="gray" variant="surface">
        <Callout.Text>{t('errors.somethingWentWrongHint')}</Callout.Text>
      </Callout.Root>
      <Flex gap="3" wrap="wrap" justify="center">
        <Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>
        <Button variant="soft" asChild>
          <a href="/dashboard">{t('nav.dashboard')}</a>
        </Button>
      </Flex>
      <Text size="1" color="gray">
        {t(APP_TITLE_KEY)}
      </Text>
    </Flex>
  );
}

/** The router's `errorElement`: any route that throws while loading or rendering lands here. */
export function RouteErrorPage() {
  return <ErrorFallback error={useRouteError()} />;
}

export default RouteErrorPage;
