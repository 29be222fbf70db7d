import { Flex, Heading } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { registeredDashboardPanels } from '../../engine/registry/index.js';
import { NoticeState } from '../../engine/ui/screen-states.js';
import { useSession } from '../../engine/ui/session-context.js';
import { partsFor, RegisteredParts } from '../registered-parts.js';
import { usePageTitle } from '../use-page-title.js';

/**
 * `/dashboard`: its title, then the panels the features register (`dashboardPanels` of their
 * client faces) that the signed-in role sees, in order; a welcome when there are none.
 */
export function DashboardPage(): ReactElement {
  const { t } = useTranslation();
  const { user } = useSession();
  usePageTitle('pages.titles.dashboard');
  const panels = partsFor(registeredDashboardPanels(), user?.role);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.dashboard')}
      </Heading>
      {panels.length === 0 ? (
        <NoticeState message={t('pages.dashboard.intro', { name: user?.name ?? '' })} />
      ) : (
        <RegisteredParts parts={panels} role={user?.role} />
      )}
    </Flex>
  );
}

export { DashboardPage as Component };
export default DashboardPage;
