import { Flex, Heading, Text } from '@radix-ui/themes';
import { type ReactElement, type ReactNode, useContext, useEffect } from 'react';
import { homePathFor } from '../../shared/roles.js';
import { useTranslation } from '../i18n/use-translation.js';
import { registeredMenuEntries } from '../registry/extension-registry.js';
import { Breadcrumb, type BreadcrumbItem } from '../widgets/breadcrumb.js';
import { reportServerTitle } from './server-title.js';
import { SessionContext } from './session-context.js';

/** Props of {@link ScreenHeader}. */
export interface ScreenHeaderProps {
  /**
   * Trail after the signed-in role's home (already translated). A trail starting at that home
   * (its first item's URL is the home's) is shown as it is.
   */
  trail: BreadcrumbItem[];
  heading: ReactNode;
  /** A line under the heading ('42 records in total'). */
  subheading?: ReactNode;
  /** Buttons on the right (create, edit). */
  actions?: ReactNode;
}

/** The label key of the home when no menu entry of the role leads there: the console's dashboard. */
const DEFAULT_HOME_LABEL = 'nav.dashboard';

/**
 * Where a role's breadcrumbs start: its declared home (`homePathFor`), named as the menu entry
 * of that role leading there names it ('Dashboard' when none does), so every role's trail starts
 * at a page it may open.
 */
export function breadcrumbHome(role: string | undefined): { path: string; labelKey: string } {
  const path = homePathFor(role);
  const entry = registeredMenuEntries().find((candidate) => candidate.to === path && (role === undefined || candidate.roles.includes(role)));
  return { path, labelKey: entry?.labelKey ?? DEFAULT_HOME_LABEL };
}

/** Breadcrumbs (the signed-in role's home › …), the screen's heading and its main actions. */
export function ScreenHeader({ trail, heading, subheading, actions }: ScreenHeaderProps): ReactElement {
  const { t } = useTranslation();
  const home = breadcrumbHome(useContext(SessionContext)?.user?.role);
  const items = trail[0]?.url === home.path ? trail : [{ label: t(home.labelKey), url: home.path }, ...trail];
  return (
    <Flex direction="column" gap="2" mb="4">
      <Breadcrumb items={items} />
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Heading as="h1" size="6" weight="bold">
            {heading}
          </Heading>
          {subheading && (
            <Text as="p" size="2" color="gray">
              {subheading}
            </Text>
          )}
        </Flex>
        {actions && (
          <Flex gap="2" wrap="wrap">
            {actions}
          </Flex>
        )}
      </Flex>
    </Flex>
  );
}

/** The i18n key of the product's name, the suffix of every page title. */
export const APP_TITLE_KEY = 'pages.titles.appName';

/** Sets `document.title` to '<title> | <product name>' from an i18n key (or keys, first found wins) while the screen is shown. */
export function usePageTitle(titleKey: string | string[], values?: Record<string, unknown>): void {
  const { t } = useTranslation();
  const title = t(titleKey, values);
  const app = t(APP_TITLE_KEY);
  reportServerTitle(title === app ? app : `${title} | ${app}`);
  useEffect(() => {
    const previous = document.title;
    document.title = title === app ? app : `${title} | ${app}`;
    return () => {
      document.title = previous;
    };
  }, [title, app]);
}
