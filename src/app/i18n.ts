import i18next, { type BackendModule, type i18n as I18n, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { onExtraTranslations } from '../engine/data/extra-translations.js';
import { DEFAULT_PRODUCT_TITLE } from '../shared/product.js';

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

type Loader = () => Promise<{ default: ResourceKey }>;

/**
 * Each language loads on demand in its own chunk (English too, as the fallback), so the first
 * page load carries no translations it does not show.
 */
const loaders: Record<Language, Loader> = {
  en: () => import('../../locales/en/common.json'),
  id: () => import('../../locales/id/common.json'),
  ms: () => import('../../locales/ms/common.json'),
};

/**
 * The sign-in page's part of each language: build.mjs keeps only the keys `sign-in-keys.json`
 * lists (under Vite, in the tests, the suffix is ignored and the whole file loads).
 */
const signInLoaders: Record<Language, Loader> = {
  en: () => import('../../locales/en/common.json?sign-in'),
  id: () => import('../../locales/id/common.json?sign-in'),
  ms: () => import('../../locales/ms/common.json?sign-in'),
};

/**
 * Whether the backend hands i18next whole languages. A page load that starts on `/login` gets only
 * the sign-in part until {@link loadAllTranslations} runs, which the router does before any other
 * screen renders (so no signed-in page ever sees a partial namespace).
 */
let wholeLanguages = typeof window === 'undefined' || window.location.pathname !== '/login';

type Tree = { [key: string]: unknown };

/** Whether the server said it has extra translations (`/api/meta/entities`); none are asked for before. */
let extrasAvailable = false;

/**
 * The server's extra translations of a language (`LOCALES_DIR`: an added entity's labels and
 * texts), or none when there are none or the server cannot be asked (tests without one).
 */
async function extraTranslations(language: string): Promise<Tree> {
  if (!extrasAvailable || typeof window === 'undefined' || !/^https?:$/.test(window.location.protocol)) return {};
  try {
    const res = await fetch(`/api/locales/${encodeURIComponent(language)}`, { credentials: 'omit' });
    if (!res.ok) return {};
    const body: unknown = await res.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Tree) : {};
  } catch {
    return {};
  }
}

/**
 * Adds the server's extra translations of a language over the shipped ones once they arrive (the
 * shipped language never waits for them), and re-renders when it is the language on screen.
 */
async function addExtraTranslations(language: string): Promise<void> {
  const extra = await extraTranslations(language);
  if (Object.keys(extra).length === 0) return;
  i18n.addResourceBundle(language, 'common', extra, true, true);
  if (i18n.resolvedLanguage === language) await i18n.changeLanguage(language);
}

// The descriptors' answer says whether there are extra translations: then the languages loaded so
// far get theirs, and every language loaded later too (see the backend below).
onExtraTranslations(() => {
  if (extrasAvailable) return;
  extrasAvailable = true;
  for (const language of SUPPORTED_LANGUAGES) if (i18n.hasResourceBundle(language, 'common')) void addExtraTranslations(language);
});

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const whole = wholeLanguages;
    const load = (whole ? loaders : signInLoaders)[language as Language];
    if (!load) {
      callback(null, {});
      return;
    }
    load()
      // The whole language was asked for while its sign-in part was on the way: hand over the whole.
      .then((module) => (!whole && wholeLanguages ? loaders[language as Language]() : module))
      .then(
        (module) => {
          callback(null, module.default);
          if (whole || wholeLanguages) void addExtraTranslations(language);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      );
  },
};

/**
 * The app's i18next instance: namespace `common`, fallback `en`, resources from `locales/`
 * loaded on demand, language detected from `?lng=`, cookie, localStorage, sessionStorage, the browser,
 * then `<html lang>`, remembered in localStorage and a cookie. Keeps `<html lang>` in step with
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
    // `{{product}}`: the product's name, the programme's own once `loadProductName` (product-name.ts) got it.
    interpolation: { escapeValue: false, defaultVariables: { product: DEFAULT_PRODUCT_TITLE } },
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

let wholeLoad: Promise<void> | null = null;

/**
 * Makes sure i18next holds the whole `common` namespace of every language it has loaded (after a
 * page load that started on the sign-in page, which gets only its part). Resolves at once when it
 * already does; safe to call any number of times.
 */
export function loadAllTranslations(): Promise<void> {
  if (wholeLanguages) return wholeLoad ?? Promise.resolve();
  wholeLanguages = true;
  wholeLoad = i18n.reloadResources().then(() => undefined);
  return wholeLoad;
}

/** Switches and remembers the language (the detector caches it), loading it first; `<html lang>` follows. */
export async function changeLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
}

export default i18n;
