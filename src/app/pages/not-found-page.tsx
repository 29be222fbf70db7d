import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { Link } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { usePageTitle } from '../use-page-title.js';

/** 404: 'Looks like you're lost' with a Go back link to `/`. */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle('pages.titles.notFound');
  return (
    <Flex direction="column" align="center" justify="center" gap="4" p="6" minHeight="60vh" data-testid="not-found-page">
      <Text size="9" weight="bold" color="indigo" aria-hidden>
        404
      </Text>
      <Heading as="h1" size="7" align="center">
        {t('pages.notFound.heading')}
      </Heading>
      <Text color="gray" align="center">
        {t('pages.notFound.text')}
      </Text>
      <Button asChild size="3">
        <Link to="/">{t('pages.notFound.goBack')}</Link>
      </Button>
    </Flex>
  );
}

export { NotFoundPage as Component };
export default NotFoundPage;
