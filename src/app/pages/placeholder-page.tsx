import { ArrowLeftIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { usePageTitle } from '../use-page-title.js';

/** A screen not built yet: its title and what it will hold, never blank. */
export function PlaceholderPage({ titleKey, descriptionKey }: { titleKey: string; descriptionKey: string }) {
  const { t } = useTranslation();
  const { id } = useParams();
  usePageTitle(titleKey);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t(titleKey)}
        {id ? ` #${id}` : ''}
      </Heading>
      <Card size="3">
        <Flex direction="column" gap="3">
          <Text>{t(descriptionKey)}</Text>
          <Text size="2" color="gray">
            {t('pages.placeholder.comingSoon')}
          </Text>
          <Flex>
            <Button variant="soft" asChild>
              <Link to="/dashboard">
                <ArrowLeftIcon aria-hidden />
                {t('pages.placeholder.backToDashboard')}
              </Link>
            </Button>
          </Flex>
        </Flex>
      </Card>
    </Flex>
  );
}

export default PlaceholderPage;
