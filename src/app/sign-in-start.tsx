// The sign-in page opened by itself (a page load of `/login`, see main.tsx): the page with the
// providers it needs (i18n, auth, the theme root) and the features' registrations (the roles' homes),
// without the app's router and screens, which are a third of the app's first load. It moves on as the app would:
// - signed in (or already signed in), it starts the app (start.tsx) in place at the page it leads
//   to: the address changes at once, this page stays until the app's first render replaces it, and
//   the 'Login successful!' toast follows on the app's screen;
// - its links (forgot password, the legal pages) open their page as a document, in the app;
// - what the router left in `history.state` (the page first asked for, a sign-out's flag) before a
//   reload is read as the router would.
// In the app (a sign-out, a guard sending a visitor to `/login`) the router's `/login` route shows
// the same page with the router's navigation (router-navigation.tsx).
// The features' roles (where each role's home is, for the page signing in leads to), as the app registers them.
import '../registry/client.js';
import { Component, lazy, type ReactNode, StrictMode, Suspense, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { AuthProvider } from './auth/auth-context.js';
import { connectHttpClient } from './auth/session.js';
import { FIRST_SCREEN_EVENT } from './first-screen.js';
import { i18n, i18nReady } from './i18n.js';
import { toast } from './lazy-toast.js';
import { entryPreloadList, preloadModules } from './module-preload.js';
import { DocumentLink, type PageNavigation, PageNavigationContext } from './page-navigation.js';
import { LoginPage } from './pages/login-page.js';
import { loadProductName } from './product-name.js';
import { ThemeRoot } from './theme-root.js';

// Both in the app's chunks: loaded only when shown.
const LoadingPage = lazy(() => import('./pages/loading-page.js'));
const ErrorFallback = lazy(() => import('./pages/route-error-page.js').then((module) => ({ default: module.ErrorFallback })));

/**
 * This page's root: a box inside `#root` shown as its content (`display: contents`). The app's
 * root is `#root` itself (start.tsx), whose first render empties it, this box with it.
 */
const container = document.createElement('div');
container.style.display = 'contents';
document.getElementById('root')!.append(container);
const root = createRoot(container);

/** The navigation state react-router keeps in `history.state` (`usr`), there after a reload of a page it opened. */
function routerState(): unknown {
  const state: unknown = window.history.state;
  return state && typeof state === 'object' && 'usr' in state ? (state.usr ?? null) : null;
}

/** The app's chunks this page did not load, asked for once the visitor starts using the form (they sign in next). */
function warmApp() {
  preloadModules(entryPreloadList('start'));
}

let leaving = false;
/** The toast to show on the app's first screen. */
let notice: string | undefined;
let appShown = false;

/** Once the app's first render has replaced this page: this root is let go, and the toast shown. */
function onFirstScreen() {
  // The event this page sends itself after its own first render (below) leaves the box in place.
  if (container.isConnected) return;
  window.removeEventListener(FIRST_SCREEN_EVENT, onFirstScreen);
  appShown = true;
  root.unmount();
  if (notice) toast.success(notice);
  notice = undefined;
}

/** Starts the app at `to` in place of this page (once; a later call adds its toast). */
function goOn(to: string, message?: string) {
  if (message) {
    if (appShown) toast.success(message);
    else notice = message;
  }
  if (leaving) return;
  leaving = true;
  window.addEventListener(FIRST_SCREEN_EVENT, onFirstScreen);
  window.history.replaceState(null, '', to);
  // The app's chunks unreachable (a new release, the network): the page opened as a document.
  import('./start.js').catch(() => window.location.replace(to));
}

/** Shows the loading page while the app starts at `to`. */
function StartApp({ to }: { to: string }) {
  useEffect(() => goOn(to), [to]);
  return (
    <Suspense fallback={null}>
      <LoadingPage />
    </Suspense>
  );
}

const navigation: PageNavigation = { state: routerState(), goOn, Redirect: StartApp, Link: DocumentLink };

/** The router's error page, for this page: a render that fails shows 'Something went wrong.' with a way out. */
class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }
  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <Suspense fallback={null}>
        <ErrorFallback error={this.state.error} />
      </Suspense>
    );
  }
}

function SignInPage() {
  // As the app does after its first render (the boot script then adds the rest of the stylesheet).
  useEffect(() => void window.dispatchEvent(new Event(FIRST_SCREEN_EVENT)), []);
  return (
    <PageNavigationContext.Provider value={navigation}>
      <ErrorBoundary>
        <Suspense fallback={null}>
          <LoginPage />
        </Suspense>
      </ErrorBoundary>
    </PageNavigationContext.Provider>
  );
}

performance.mark('main-start');
connectHttpClient();
// The programme's own name for the title and the brand; the default shows until it is in.
void loadProductName(i18n);
container.addEventListener('focusin', warmApp, { once: true });
container.addEventListener('pointerdown', warmApp, { once: true });
await i18nReady;
performance.mark('preloaded');
root.render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <AuthProvider>
        <ThemeRoot>
          <SignInPage />
        </ThemeRoot>
      </AuthProvider>
    </I18nextProvider>
  </StrictMode>,
);
