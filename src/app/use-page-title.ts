import { useEffect } from 'react';
import { useTranslation } from '../engine/i18n/use-translation.js';
import { reportServerTitle } from '../engine/ui/server-title.js';

/**
 * The key of the product name, the suffix of every title (the engine's `APP_TITLE_KEY` too: the
 * sign-in page's first load carries no engine module but the HTTP client's).
 */
export const APP_TITLE_KEY = 'pages.titles.appName';

/**
 * Sets `document.title` to '<title> | <product name>' from an i18n key, following the
 * language. Pass {@link APP_TITLE_KEY} for the bare product name.
 */
export function usePageTitle(key: string, values?: Record<string, unknown>): void {
  const { t, i18n } = useTranslation();
  const title = t(key, values);
  const app = t(APP_TITLE_KEY);
  reportServerTitle(key === APP_TITLE_KEY ? app : `${title} | ${app}`);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-applies the title on every language switch, even when this text reads the same in both languages, so that of several screens setting it the same one wins as on mount
  useEffect(() => {
    document.title = key === APP_TITLE_KEY ? app : `${title} | ${app}`;
  }, [key, title, app, i18n.resolvedLanguage]);
}
