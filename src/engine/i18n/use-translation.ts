import type { i18n as I18n } from 'i18next';
import { useContext, useSyncExternalStore } from 'react';
import { getI18n, I18nContext, type UseTranslationResponse } from 'react-i18next';

/** What every component of one i18next instance shares until its language changes. */
interface Shared {
  version: number;
  listeners: Set<() => void>;
  /** The hook's answer for the current language (made on first use). */
  answer: UseTranslationResponse<'common', undefined> | null;
  subscribe: (listener: () => void) => () => void;
  getVersion: () => number;
  /** The texts of calls with a key alone, kept until the language, the resources or the default variables change. */
  kept: Map<string, unknown>;
  /** The default variables the kept texts were made with (`{{product}}`: product-name.ts). */
  variables: unknown;
}

const sharedByInstance = new WeakMap<I18n, Shared>();

function sharedOf(i18n: I18n): Shared {
  let shared = sharedByInstance.get(i18n);
  if (!shared) {
    const state: Shared = {
      version: 0,
      listeners: new Set(),
      answer: null,
      subscribe: (listener) => {
        state.listeners.add(listener);
        return () => void state.listeners.delete(listener);
      },
      getVersion: () => state.version,
      kept: new Map(),
      variables: undefined,
    };
    const forget = () => state.kept.clear();
    i18n.store?.on('added', forget);
    i18n.store?.on('removed', forget);
    // As react-i18next binds by default: a new language renders every user again, with a new `t`.
    i18n.on('languageChanged', () => {
      forget();
      state.version += 1;
      state.answer = null;
      for (const listener of [...state.listeners]) listener();
    });
    sharedByInstance.set(i18n, (shared = state));
  }
  return shared;
}

/** The instance's default namespace (`common` in the console). */
function namespaceOf(i18n: I18n): string {
  const ns = i18n.options?.defaultNS;
  return (Array.isArray(ns) ? ns[0] : ns) || 'translation';
}

/**
 * react-i18next's `useTranslation()` for the console's one namespace, with one answer (`t`, `i18n`,
 * `ready`) shared by every component until the language changes: react-i18next's own hook copies
 * the whole i18next instance into a new wrapper for each component it mounts, which a list page
 * (some hundred users of the hook, mounted again for each new page of rows) paid on every render.
 * Like it, it suspends until the namespace is loaded and renders its users again on a language change.
 */
export function useTranslation(): UseTranslationResponse<'common', undefined> {
  const i18n = (useContext(I18nContext)?.i18n ?? getI18n()) as I18n;
  const shared = sharedOf(i18n);
  useSyncExternalStore(shared.subscribe, shared.getVersion, shared.getVersion);
  if (shared.answer) return shared.answer;
  const ns = namespaceOf(i18n);
  if (!i18n.isInitialized || !i18n.hasLoadedNamespace(ns)) {
    throw new Promise<void>((resolve) => {
      const load = () => void i18n.loadNamespaces(ns, () => resolve());
      if (i18n.isInitialized) return load();
      const initialized = () => {
        i18n.off('initialized', initialized);
        load();
      };
      i18n.on('initialized', initialized);
    });
  }
  const fixed = i18n.getFixedT(null, ns);
  // A list page asks for the same texts hundreds of times (labels, the row actions' names, the
  // menu): i18next resolves each call again (a fifth of the server's render of a list's first
  // screen), so the text of a key asked alone is kept. A call with options is always resolved.
  const t = ((...args: Parameters<typeof fixed>) => {
    if (args.length !== 1 || typeof args[0] !== 'string') return fixed(...args);
    const variables = i18n.options.interpolation?.defaultVariables;
    if (variables !== shared.variables) {
      shared.kept.clear();
      shared.variables = variables;
    }
    const key = args[0];
    if (shared.kept.has(key)) return shared.kept.get(key);
    const text = fixed(key);
    shared.kept.set(key, text);
    return text;
  }) as typeof fixed;
  const answer = Object.assign([t, i18n, true], { t, i18n, ready: true }) as unknown as UseTranslationResponse<'common', undefined>;
  shared.answer = answer;
  return answer;
}
