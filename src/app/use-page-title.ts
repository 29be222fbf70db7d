import { useEffect } from 'react';
import { useTranslation } from '../engine/i18n/use-translation.js';
import { reportServerTitle } from '../engine/ui/server-title.js';

/** The key of the product name, the suffix of every title. */
export const APP_TITLE_KEY = 'pages.titles.awardsCms';

/**
 * Sets `document.title` to '<title> | Awards CMS' from an i18n key, following the
 * language. Pass {@link APP_TITLE_KEY} for the bare product name.
 */
export function usePageTitle(key: string, values?: Record<string, unknown>): void {
  const { t, i18n } = useTranslation();
  const title = t(key, values);
  const app = t(APP_TITLE_KEY);
  reportServerTitle(key === APP_TITLE_KEY ? app : `${title} | ${app}`);
  useEffect(() => {
    document.title = key === APP_TITLE_KEY ? app : `${title} | ${app}`;
  }, [key, title, app, i18n.resolvedLanguage]);
}
