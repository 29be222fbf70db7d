import { Card, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.js';
import { NAV_GROUPS } from '../layout/nav-items.js';
import { usePageTitle } from '../use-page-title.js';

/**
 * `/dashboard`: for now a titled start page leading to every area of the console. The issue-5
 * engineer replaces its body with the figures of `GET /api/dashboard`.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  usePageTitle('pages.titles.dashboard');
  const areas = NAV_GROUPS.flatMap((group) => group.items).filter((item) => item.to !== '/dashboard');
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.dashboard')}
      </Heading>
      <Text color="gray">{t('pages.dashboard.intro', { name: user?.name ?? '' })}</Text>
      <Grid columns={{ initial: '1', xs: '2', lg: '3' }} gap="3">
        {areas.map(({ to, labelKey, icon: Icon }) => (
          <Card key={to} asChild>
            <Link to={to} className="area-card">
              <Flex align="center" gap="3">
                <Icon width={20} height={20} aria-hidden />
                <Text weight="medium">{t(labelKey)}</Text>
              </Flex>
            </Link>
          </Card>
        ))}
      </Grid>
    </Flex>
  );
}

export { DashboardPage as Component };
export default DashboardPage;
