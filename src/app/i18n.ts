import i18next, { type BackendModule, type i18n as I18n, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';

/** The console's languages, in the order the header's switcher cycles through them. */
export const SUPPORTED_LANGUAGES = ['en', 'id', 'ms'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/** Where the chosen language is remembered (the detector reads and writes these). */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/** Narrows any language tag (`ms-MY`, `id`, `fr`) to a supported language, `en` otherwise. */
export function toLanguage(tag: string | null | undefined): Language {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : 'en';
}

/** The language after `current` in {@link SUPPORTED_LANGUAGES}, wrapping round. */
export function nextLanguage(current: string | null | undefined): Language {
  const index = SUPPORTED_LANGUAGES.indexOf(toLanguage(current));
  return SUPPORTED_LANGUAGES[(index + 1) % SUPPORTED_LANGUAGES.length]!;
}

function applyLanguage(tag: string | undefined) {
  const language = toLanguage(tag);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Each language loads on demand in its own chunk (English too, as the fallback), so the first
 * page load carries no translations it does not show.
 */
const loaders: Record<string, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('../../locales/en/common.json'),
  id: () => import('../../locales/id/common.json'),
  ms: () => import('../../locales/ms/common.json'),
};

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = loaders[language];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * The app's i18next instance: namespace `common`, fallback `en`, resources from `locales/`
 * loaded on demand, language detected from `?lng=`, cookie, localStorage, sessionStorage, the browser,
 * then `<html lang>` (spec §1), remembered in localStorage and a cookie. Keeps `<html lang>` in step with
 * the language (dates are formatted with the language passed explicitly). Initialised on import; await
 * {@link i18nReady} (or `changeLanguage`) before the first render.
 */
export const i18n: I18n = i18next.createInstance();

i18n.on('languageChanged', applyLanguage);

/** Resolves once the detected language's resources are in; render after it to avoid a flash of English. */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyLocales)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    ns: ['common'],
    defaultNS: 'common',
    fallbackLng: 'en',
    supportedLngs: [...SUPPORTED_LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
    detection: {
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupCookie: LANGUAGE_STORAGE_KEY,
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      lookupSessionStorage: LANGUAGE_STORAGE_KEY,
      caches: ['localStorage', 'cookie'],
      cookieOptions: { path: '/', sameSite: 'strict' },
    },
  });

/** Switches and remembers the language (the detector caches it), loading it first; `<html lang>` follows. */
export async function changeLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
}

export default i18n;
