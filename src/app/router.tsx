import { type ComponentType, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import {
  loadRegisteredExtensions,
  type RegisteredPart,
  type RegisteredScreen,
  registeredDashboardPanels,
  registeredHeaderItems,
  registeredProfileCards,
  registeredScreens,
} from '../engine/registry/index.js';
import type { EntityRoutesProps } from '../engine/routes/entity-routes.js';
import { ADMIN_ROLE, homePathFor, roleNames } from '../shared/roles.js';
import { useAuth } from './auth/auth-context.js';
import { ProtectedRoute, RequireSession } from './auth/guards.js';
import { tokenStore } from './auth/session.js';
import { SessionWatcher } from './auth/session-watcher.js';
import { loadAllTranslations } from './i18n.js';
import { LEGAL_PAGES } from './layout/legal-pages.js';
import { requestToasts } from './notify.js';
import { LoadingPage } from './pages/loading-page.js';
import { RouteErrorPage } from './pages/route-error-page.js';
import { preloadable } from './preloadable.js';
import { preloadParts } from './registered-parts.js';
import { RouterNavigationProvider } from './router-navigation.js';
import { ToastProvider } from './toast-provider.js';
import { usePageTitle } from './use-page-title.js';

type Loader<T = { default: ComponentType }> = () => Promise<T>;

/**
 * Loads a screen other than the sign-in page: with the whole translation namespace (a page load
 * that started on `/login` has only the sign-in part) and the toast container, which every such
 * screen may use.
 */
function withAppResources<T>(load: Loader<T>): Loader<T> {
  return () =>
    Promise.all([load(), loadAllTranslations()]).then(([module]) => {
      // The toast container (and react-toastify) after the screen's first paint, not before it.
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => requestToasts(), { timeout: 1000 });
      else setTimeout(requestToasts, 100);
      return module;
    });
}

/**
 * Loads a screen together with the registered parts it shows for the signed-in role (its
 * dashboard panels, header items, profile cards), so its first render shows them.
 */
function withParts<T>(load: Loader<T>, parts: () => readonly RegisteredPart[]): Loader<T> {
  return () => Promise.all([load(), preloadParts(parts(), tokenStore.getUser()?.role)]).then(([module]) => module);
}

/** What a route of the table below can load ahead of its first render (see {@link preloadFirstScreen}). */
interface RouteHandle {
  preload?: () => Promise<unknown>;
  /** Data the screen shows first, put in the query cache ahead (waited for at most {@link DATA_WAIT_MS}). */
  prefetch?: () => Promise<unknown>;
  /** Loaded ahead only for a signed-in tab (the signed-in frame and what is under it). */
  signedIn?: boolean;
}

/**
 * A route whose screen loads lazily (its own chunk) behind the 'Loading...' skeleton, and can load
 * ahead of the first render. Only the sign-in page passes `signIn`: it makes do with its part of the
 * translations and asks for toasts when it shows one.
 */
function lazyRoute(path: string, load: Loader, { signIn = false } = {}): RouteObject {
  const Screen = preloadable(signIn ? load : withAppResources(load));
  return { path, element: suspended(<Screen />), handle: { preload: Screen.preload } satisfies RouteHandle };
}

function suspended(screen: ReactNode): ReactNode {
  return <Suspense fallback={<LoadingPage />}>{screen}</Suspense>;
}

/**
 * Loads a signed-in screen (the frame, the entity screens) with what the features registered as
 * `lazy` (their cells, widgets, row actions), which no screen renders without; the sign-in page
 * loads none of it.
 */
function withLazyRegistrations<T>(load: Loader<T>): Loader<T> {
  return () => Promise.all([load(), loadRegisteredExtensions()]).then(([module]) => module);
}

const AuthenticatedLayout = preloadable(
  withAppResources(withLazyRegistrations(withParts(() => import('./layout/authenticated-layout.js'), registeredHeaderItems))),
);
const FallbackPage = preloadable(withAppResources(() => import('./pages/fallback-page.js')));
const EntityRoutes = preloadable(
  withAppResources<{ default: ComponentType<EntityRoutesProps> }>(
    withLazyRegistrations(() =>
      import('../engine/routes/entity-routes.js').then((module) => {
        // The app's lists fetch the next page ahead ('Next' then renders from the cache).
        module.setNextPagePrefetch(true);
        return { default: module.EntityRoutes };
      }),
    ),
  ),
);

/** The first list page the URL shows, in the query cache before the first render. */
async function prefetchFirstListData(): Promise<void> {
  const [{ prefetchFirstList }, { getQueryClient }] = await Promise.all([import('../engine/routes/entity-routes.js'), import('./query-client.js')]);
  await prefetchFirstList(getQueryClient(), window.location.pathname, window.location.search);
}

/** Every route's element sits under this: the session watcher, the toast service and the pages' navigation (page-navigation.tsx). */
function Root() {
  return (
    <ToastProvider>
      <RouterNavigationProvider>
        <SessionWatcher />
        <Outlet />
      </RouterNavigationProvider>
    </ToastProvider>
  );
}

/** A registered screen's route, behind the roles it names. */
function screenRoute(screen: RegisteredScreen): RouteObject {
  if ('redirect' in screen) {
    return {
      path: screen.path,
      element: (
        <ProtectedRoute roles={screen.roles}>
          <Navigate to={screen.redirect} replace />
        </ProtectedRoute>
      ),
    };
  }
  const route = lazyRoute(screen.path, screen.load);
  return { ...route, element: <ProtectedRoute roles={screen.roles}>{route.element}</ProtectedRoute> };
}

/** The signed-in frame's guard: every declared role (read as it renders), and the callback's plain `user`. */
function AnySignedInRole({ children }: { children: ReactNode }) {
  return <ProtectedRoute roles={[...roleNames(), 'user']}>{children}</ProtectedRoute>;
}

/** `/` (Home): a signed-in user goes on to their role's home (`homePathFor`). */
function HomeRedirect() {
  const { user } = useAuth();
  usePageTitle('pages.titles.home');
  return <Navigate to={homePathFor(user?.role)} replace />;
}

/** The app's route table. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      lazyRoute('/login', () => import('./pages/login-page.js'), { signIn: true }),
      lazyRoute('/logout', () => import('./pages/logout-page.js')),
      lazyRoute('/authorizer', () => import('./pages/authorizer-page.js')),
      lazyRoute('/403', () => import('./pages/forbidden-page.js')),
      lazyRoute('/forgot-password', () => import('./pages/forgot-password-page.js')),
      lazyRoute('/reset-password', () => import('./pages/reset-password-page.js')),
      lazyRoute('/set-password', () => import('./pages/reset-password-page.js')),
      ...LEGAL_PAGES.map((page) => lazyRoute(page.path, () => import('./pages/legal-page.js'))),
      {
        element: (
          <RequireSession>
            <AnySignedInRole>
              <Suspense fallback={<LoadingPage />}>
                <AuthenticatedLayout />
              </Suspense>
            </AnySignedInRole>
          </RequireSession>
        ),
        handle: { preload: AuthenticatedLayout.preload, signedIn: true } satisfies RouteHandle,
        children: [
          lazyRoute(
            '/profile',
            withParts(() => import('./pages/profile-page.js'), registeredProfileCards),
          ),
          lazyRoute(
            '/user',
            withParts(() => import('./pages/profile-page.js'), registeredProfileCards),
          ),
          lazyRoute('/faq', () => import('./pages/faq-page.js')),
          lazyRoute('/helpdesk', () => import('./pages/helpdesk-page.js')),
          { index: true, element: <HomeRedirect /> },
          // The features' workflow screens (their client faces' `screens`), each behind its roles.
          ...registeredScreens().map(screenRoute),
          {
            element: (
              <ProtectedRoute roles={[ADMIN_ROLE]}>
                <Outlet />
              </ProtectedRoute>
            ),
            children: [
              lazyRoute(
                '/dashboard',
                withParts(() => import('./pages/dashboard-page.js'), registeredDashboardPanels),
              ),
              lazyRoute('/sandbox', () => import('./pages/sandbox-page.js')),
              // Entity screens from the descriptors; a registered route without one yet shows its placeholder.
              {
                path: '*',
                element: <EntityRoutes fallback={<FallbackPage />} />,
                handle: { preload: EntityRoutes.preload, prefetch: prefetchFirstListData, signedIn: true } satisfies RouteHandle,
              },
            ],
          },
        ],
      },
    ],
  },
];

/** How long the first render waits for the first screen's data (its chunks: up to `capMs`). */
const DATA_WAIT_MS = 1000;

/**
 * Loads, before the first render, the chunks of the screens the current URL shows (the boot script
 * has most often fetched them already: this only evaluates them) and the data its screen shows
 * first, so the first render shows the screen with its rows rather than Suspense fallbacks (each
 * holds the screen back by at least 300 ms) and spinners (each one more render). The signed-in
 * frame and the screens under it load ahead only for a signed-in tab; `EntityRoutes` (the `*`
 * route) only when nothing more specific matches, as the router would pick. Never waits more than
 * `capMs` for chunks nor {@link DATA_WAIT_MS} for data: what is slower goes on loading behind the
 * usual fallback or spinner.
 */
export async function preloadFirstScreen(pathname = window.location.pathname, capMs = 3000): Promise<void> {
  const signedIn = tokenStore.hasSession();
  const chunks: Array<Promise<unknown>> = [];
  const data: Array<Promise<unknown>> = [];
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const handle = match.route.handle as RouteHandle | undefined;
    // A tab without a session is sent to sign in: nothing of the signed-in branch will show.
    if (handle?.signedIn && !signedIn) break;
    if (handle?.preload) chunks.push(handle.preload().catch(() => undefined));
    if (handle?.prefetch) data.push(handle.prefetch().catch(() => undefined));
  }
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const within = (work: Array<Promise<unknown>>, ms: number) =>
    work.length === 0 ? Promise.resolve() : Promise.race([Promise.all(work), new Promise((resolve) => timers.push(setTimeout(resolve, ms)))]);
  await Promise.all([within(chunks, capMs), within(data, Math.min(capMs, DATA_WAIT_MS))]);
  for (const timer of timers) clearTimeout(timer);
}

/** The app's browser router. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
