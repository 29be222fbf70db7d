import { startEarlyFirstList, startEarlyGet } from '../engine/data/http-client.js';
import {
  afterNextFrame,
  type ElementLocator,
  FIRST_SCREEN_ATTRIBUTE,
  FIRST_SCREEN_EVENT,
  FIRST_SCREEN_KEY,
  type FirstScreenIntent,
  find,
  firstScreenState,
  locate,
} from './first-screen.js';
import { SIDEBAR_COLLAPSED_KEY } from './layout/sidebar-state.js';

// The boot script: a second, tiny entry point (build.mjs), which every page carries inline and
// runs as the parser reaches it, before the app's own code has loaded. On every page it asks for the
// entry script's chunks (`<link rel="modulepreload">`); for a signed-in tab, first
// - starts `GET /api/meta/entities` and, beside it, `GET /api/meta/first-list` for the page of the
//   list the URL shows (the server knows which list a path is), which the app then picks up
//   (http-client `startEarlyGet`, `startEarlyFirstList`) instead of asking again;
// - shows that list screen as the server renders it (`GET /api/meta/first-screen`), live (its
//   links and pages work, what is typed or clicked there is carried over), until the app's first
//   render replaces it;
// and after them asks for every chunk the signed-in screens need (the shell, the entity engine and
// the translations: the lists of the page's JSON block, which the build writes), instead of the app
// finding them one import level at a time.
// It reads nothing per user from the page (the HTML is the same for everyone). See docs/architecture.md, "The boot script".

/** The build's preload lists (`<script type="application/json" id="ac-preload">`). */
interface PreloadManifest {
  styles?: string[];
  /** The entry script's static imports. */
  initial?: string[];
  app: string[];
  languages: Record<string, string[]>;
}

/** Pages where a signed-in tab does not go on to the console (nothing to start). */
const PUBLIC_PATHS = ['/login', '/logout', '/forgot-password', '/reset-password', '/set-password', '/authorizer'];

/** The access token of this tab when it is signed in with one valid for a while yet. */
function validToken(): string | null {
  try {
    const token = sessionStorage.getItem('auth_token');
    const expiresAt = Number(sessionStorage.getItem('auth_expires_at'));
    return token && Number.isFinite(expiresAt) && expiresAt - Date.now() > 10_000 ? token : null;
  } catch {
    return null;
  }
}

function readManifest(): PreloadManifest | null {
  const text = document.getElementById('ac-preload')?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PreloadManifest;
  } catch {
    return null;
  }
}

/** The languages the app will load: the chosen one (as i18n's detector finds it) and English, the fallback. */
function likelyLanguages(): string[] {
  const read = (get: () => string | null | undefined) => {
    try {
      return get() ?? undefined;
    } catch {
      return undefined;
    }
  };
  const cookie = /(?:^|;\s*)i18nextLng=([^;]+)/.exec(document.cookie)?.[1];
  const chosen =
    new URLSearchParams(location.search).get('lng') ??
    cookie ??
    read(() => localStorage.getItem('i18nextLng')) ??
    navigator.language ??
    document.documentElement.lang;
  return [...new Set([(chosen ?? 'en').toLowerCase().split(/[-_]/)[0]!, 'en'])];
}

/**
 * Asks for `files` as modules. The signed-in screens' chunks go `low`, below the API requests
 * (high): over HTTP/1.1 the browser has six connections to the server, and the first list page
 * must not wait behind some forty chunks.
 */
function preload(files: readonly string[], priority: 'auto' | 'low') {
  for (const href of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.fetchPriority = priority;
    link.href = href;
    document.head.appendChild(link);
  }
}

/** Runs `task` once the page has nothing more urgent to do (after the first screen, as a rule). */
function whenIdle(task: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 5000 });
  else setTimeout(task, 2000);
}

/**
 * Adds the stylesheet of the colour scales the console does not use itself (build.mjs splits them
 * off; a descriptor may name one for a badge) once the first screen is shown and the page is idle
 * (the page can be idle before, while it waits for the network): it never delays the first screen.
 */
function addMoreStyles(files: readonly string[]) {
  let added = false;
  const add = () => {
    if (added) return;
    added = true;
    whenIdle(addNow);
  };
  window.addEventListener(FIRST_SCREEN_EVENT, add, { once: true });
  // An app that never says so (a script error) still gets them.
  setTimeout(add, 10_000);
  const addNow = () => {
    for (const href of files) {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      document.head.appendChild(link);
    }
  };
}

/** The server's render of the list screen at `path` + `search` (`GET /api/meta/first-screen`), or null when there is none. */
async function fetchFirstScreen(token: string, path: string, search: string): Promise<{ html: string; title: string | null } | null> {
  const query = new URLSearchParams({ path, search, lng: likelyLanguages()[0]! });
  try {
    // The sidebar as this browser left it (the server cannot see localStorage).
    if (localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true') query.set('sidebar', 'collapsed');
  } catch {
    // No storage: the sidebar is open, as the app will show it.
  }
  try {
    const answer = await fetch(`/api/meta/first-screen?${query}`, {
      headers: { accept: 'text/html', authorization: `Bearer ${token}`, 'x-access-token': token },
      credentials: 'same-origin',
      priority: 'high',
    } as RequestInit);
    if (answer.status !== 200) return null;
    let title = answer.headers.get('x-page-title');
    try {
      title = title && decodeURIComponent(title);
    } catch {
      // Not URI text: the app sets the title.
      title = null;
    }
    return { html: await answer.text(), title };
  } catch {
    return null;
  }
}

/** Puts a first screen in the root, marked as the server's (the app's first render replaces it, mark and all). */
function putFirstScreen(root: HTMLElement, screen: { html: string; title: string | null }) {
  root.innerHTML = screen.html;
  for (const child of root.children) child.setAttribute(FIRST_SCREEN_ATTRIBUTE, '');
  if (screen.title) document.title = screen.title;
}

/**
 * Asks the server for the HTML of the list screen the page shows (`GET /api/meta/first-screen`: the
 * app's own components, rendered with the caller's data) and shows it while the app's code is still
 * loading, unless the app has shown its own by then; the app's first render replaces it. It is live
 * from the start (see {@link keepFirstScreenLive}).
 */
function showFirstScreen(token: string): Promise<boolean> {
  return fetchFirstScreen(token, location.pathname, location.search).then(async (screen) => {
    const root = document.getElementById('root');
    if (!screen || !root || root.childElementCount > 0) return false;
    putFirstScreen(root, screen);
    keepFirstScreenLive(root, token);
    // The chunks wait until it is on screen: its style, layout and paint are some 500 ms of the main
    // thread on a busy machine, and the app's chunks arriving meanwhile took CPU from them.
    await afterPaint();
    return true;
  });
}

/** Resolves once the screen is drawn: after the next frame (a tab in the background draws none: then at once, or after a second if it is sent there meanwhile). */
function afterPaint(): Promise<void> {
  return document.visibilityState === 'hidden' ? Promise.resolve() : afterNextFrame(1000);
}

/**
 * Makes the server's first screen work before the app does. Its links and the controls that lead
 * to another page of the list (pagination, sorting: their `data-href`) work as in the app: the
 * address changes and the server's render of the new page replaces the screen (another list) or,
 * for a screen the server does not render, the screen waits, busy, for the app, which opens that
 * address. Everything else done there — typing, ticking, pressing a button, submitting — is noted
 * (src/app/first-screen.ts) and done again by the app on its own screen once it has replaced this
 * one, with the focus where it was; from the moment the app starts making its router, links and
 * pages are noted too, so that the app sees every step in order.
 */
function keepFirstScreenLive(root: HTMLElement, token: string) {
  const state = firstScreenState();
  const shown = () => root.firstElementChild?.hasAttribute(FIRST_SCREEN_ATTRIBUTE) === true;
  const note = (intent: FirstScreenIntent) => {
    const last = state.intents.at(-1);
    // A value typed key by key is one step: the last value counts.
    if (intent.kind === 'value' && last?.kind === 'value' && JSON.stringify(last.at) === JSON.stringify(intent.at)) state.intents.pop();
    state.intents.push(intent);
  };
  let navigation = 0;
  // The page 'Next' leads to, asked for as soon as a screen is shown (the app fetches the next page
  // ahead too): 'Next', the likeliest step, then shows it at once.
  const ahead = new Map<string, ReturnType<typeof fetchFirstScreen>>();
  // The pages of the list asked for the app (each once: the app takes an answer once).
  const listed = new Set<string>();
  const startList = (url: URL) => {
    const key = url.pathname + url.search;
    if (listed.has(key)) return;
    listed.add(key);
    startEarlyFirstList(url.pathname, url.search, token);
  };
  const fetchAhead = () => {
    const href = root.querySelector('[data-rel="next"][data-href]')?.getAttribute('data-href');
    if (!href || ahead.size > 8) return;
    const url = new URL(href, location.href);
    const key = url.pathname + url.search;
    // Ahead of the app's chunks (over six connections, a low priority would queue it behind some forty).
    if (ahead.has(key)) return;
    ahead.set(key, fetchFirstScreen(token, url.pathname, url.search));
    // And that page of the list, for the app, which asks for it as soon as it shows this one
    // (it fetches the next page ahead): a 'Next' just after the app has taken over is then not a
    // request of its own either.
    if (!state.appStarting) startList(url);
  };
  // Once the screen is drawn: the server's render of the next page took the CPU that the
  // browser needed for the layout of this one (on two cores, the row was drawn 300-700 ms after it
  // was in the document).
  void afterPaint().then(fetchAhead);
  /** `focused`: where the focus was (on the control that opened the page): kept there on the new page, for the keyboard. */
  const open = async (url: URL, focused: ElementLocator | null = null) => {
    const mine = ++navigation;
    root.setAttribute('aria-busy', 'true');
    // The app picks the list's page up when it asks for it (as for the first page).
    startList(url);
    const screen = await (ahead.get(url.pathname + url.search) ?? fetchFirstScreen(token, url.pathname, url.search));
    // Without a render (not a list) the screen stays, busy, until the app shows the address.
    if (!screen || mine !== navigation || !shown() || state.appStarting) return;
    root.removeAttribute('aria-busy');
    putFirstScreen(root, screen);
    state.focus = null;
    window.scrollTo(0, 0);
    if (focused) find(root, focused)?.focus({ preventScroll: true });
    fetchAhead();
  };
  root.addEventListener('click', (event) => {
    if (!shown() || event.defaultPrevented || !(event.target instanceof Element)) return;
    const target = event.target.closest(
      '[data-href], a[href], button, input, select, textarea, label, summary, [role=button], [role=checkbox], [role=combobox], [role=switch], [role=tab], [role=menuitem], [role=radio], [role=link]',
    );
    if (!target) return;
    const href = target.getAttribute('data-href') ?? (target instanceof HTMLAnchorElement ? target.getAttribute('href') : null);
    const url = href === null ? null : new URL(href, location.href);
    const plain = !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && event.button === 0;
    // A link to elsewhere, to a new tab or with a modifier key is the browser's.
    if (url && (url.origin !== location.origin || target.getAttribute('target') || !plain)) return;
    // A native field changes itself; the app is told its value (see 'input' below).
    if (
      target instanceof HTMLInputElement ||
      target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement ||
      target instanceof HTMLLabelElement
    )
      return;
    event.preventDefault();
    if (!url) return note({ kind: 'click', at: locate(root, target) });
    if (state.appStarting) {
      // The app opens it once its first render is done: the page of the list it shows is asked
      // for now, and the app picks it up then (as for the first page).
      startList(url);
      return note({ kind: 'navigate', href: url.pathname + url.search + url.hash });
    }
    history.pushState(null, '', url.pathname + url.search + url.hash);
    void open(url, document.activeElement === target ? locate(root, target) : null);
  });
  const noteValue = (event: Event) => {
    const field = event.target;
    if (!shown() || !(field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement)) return;
    note({ kind: 'value', at: locate(root, field), value: field.value, checked: field instanceof HTMLInputElement ? field.checked : undefined });
  };
  root.addEventListener('input', noteValue);
  root.addEventListener('change', noteValue);
  root.addEventListener('submit', (event) => {
    if (!shown() || !(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    note({ kind: 'submit', at: locate(root, event.target) });
  });
  root.addEventListener('focusin', (event) => {
    if (shown() && event.target instanceof Element) state.focus = locate(root, event.target);
  });
  // Back and forward between the pages opened here.
  window.addEventListener('popstate', () => {
    if (shown() && !state.appStarting) void open(new URL(location.href));
  });
}

function boot() {
  const manifest = readManifest();
  if (manifest?.styles?.length) addMoreStyles(manifest.styles);
  const token = validToken();
  const signedIn = token !== null && !PUBLIC_PATHS.includes(location.pathname);
  // The API requests first (the browser sends requests in the order they are made, over six
  // connections): the descriptors, the list the page shows if it is one (the server knows which
  // list a path is) and its first screen; then the chunks.
  let firstScreen: Promise<unknown> = Promise.resolve();
  if (signedIn) {
    void startEarlyGet('/api/meta/entities', token).catch(() => undefined);
    startEarlyFirstList(location.pathname, location.search, token);
    const shown = showFirstScreen(token);
    // The app's entry script waits for it (src/app/first-screen.ts firstScreenSettled), and so do
    // the chunks: the first screen's markup does not share the network with the
    // scripts it does not need (the app runs after it anyway), for at most a second.
    (globalThis as { [FIRST_SCREEN_KEY]?: Promise<boolean> })[FIRST_SCREEN_KEY] = shown;
    firstScreen = Promise.race([shown, new Promise((resolve) => setTimeout(resolve, 1000))]);
  }
  if (!manifest) return;
  void firstScreen.then(() => {
    // The entry script's own chunks, on every page (the page names them here rather than in
    // `<link rel="modulepreload">`, which the browser would ask for ahead of the API requests).
    preload(manifest.initial ?? [], 'auto');
    if (!signedIn) return;
    const languages = likelyLanguages();
    // The translations first: the first render waits for them, and they came last otherwise.
    preload([...languages.flatMap((language) => manifest.languages[language] ?? []), ...manifest.app], 'low');
  });
}

boot();
