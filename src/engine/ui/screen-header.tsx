import { Flex, Heading, Text } from '@radix-ui/themes';
import { type ReactElement, type ReactNode, useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { Breadcrumb, type BreadcrumbItem } from '../widgets/breadcrumb.js';
import { reportServerTitle } from './server-title.js';

/** Props of {@link ScreenHeader}. */
export interface ScreenHeaderProps {
  /** Trail after 'Dashboard' (already translated). */
  trail: BreadcrumbItem[];
  heading: ReactNode;
  /** A line under the heading ('42 records in total'). */
  subheading?: ReactNode;
  /** Buttons on the right (create, edit). */
  actions?: ReactNode;
}

/** Breadcrumbs (Dashboard › …), the screen's heading and its main actions. */
export function ScreenHeader({ trail, heading, subheading, actions }: ScreenHeaderProps): ReactElement {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="2" mb="4">
      <Breadcrumb items={[{ label: t('nav.dashboard'), url: '/dashboard' }, ...trail]} />
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
