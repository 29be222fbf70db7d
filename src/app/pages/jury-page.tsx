import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-context.js';
import { usePageTitle } from '../use-page-title.js';

/**
 * The jury portal's home (`/jury`), where a juror lands after signing in (DESIGN §5, §11). A titled
 * page saying what will be here until the judging screens arrive.
 */
export function JuryPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  usePageTitle('pages.titles.jury');
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.jury')}
      </Heading>
      <Card size="3">
        <Flex direction="column" gap="3">
          <Text>{t('pages.jury.welcome', { name: user?.name ?? '' })}</Text>
          <Text size="2" color="gray">
            {t('pages.jury.placeholder')}
          </Text>
        </Flex>
      </Card>
    </Flex>
  );
}

export default JuryPage;
