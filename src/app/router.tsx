import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { ProtectedRoute, RequireSession } from './auth/guards.js';
import { SessionWatcher } from './auth/session-watcher.js';
import { loadAllTranslations } from './i18n.js';
import { LEGAL_PAGES } from './layout/legal-pages.js';
import { requestToasts } from './notify.js';
import { LoadingPage } from './pages/loading-page.js';
import { RouteErrorPage } from './pages/route-error-page.js';
import { usePageTitle } from './use-page-title.js';
import { homePathFor } from '../shared/roles.js';
import { useAuth } from './auth/auth-context.js';
// The application's cells, widgets and screens, registered before the routes below are built.
import '../extensions/client/index.js';
import { registeredScreens } from '../engine/registry/index.js';

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
 * A lazily loaded screen (its own chunk) behind the 'Loading...' skeleton. Only the sign-in page
 * passes `signIn`: it makes do with its part of the translations and asks for toasts when it shows one.
 */
function lazyElement(load: Loader, { signIn = false } = {}): ReactNode {
  const Screen = lazy(signIn ? load : withAppResources(load));
  return (
    <Suspense fallback={<LoadingPage />}>
      <Screen />
    </Suspense>
  );
}

const AuthenticatedLayout = lazy(withAppResources(() => import('./layout/authenticated-layout.js')));
const FallbackPage = lazy(withAppResources(() => import('./pages/fallback-page.js')));
const EntityRoutes = lazy(
  withAppResources(() =>
    import('../engine/routes/entity-routes.js').then((module) => {
      // The app's lists fetch the next page ahead ('Next' then renders from the cache).
      module.setNextPagePrefetch(true);
      return { default: module.EntityRoutes };
    }),
  ),
);

/** Every route's element sits under this: the session watcher. */
function Root() {
  return (
    <>
      <SessionWatcher />
      <Outlet />
    </>
  );
}

/** `/` (Home): a signed-in admin goes on to the dashboard (DESIGN §9), a juror to the jury portal. */
function HomeRedirect() {
  const { user } = useAuth();
  usePageTitle('pages.titles.home');
  return <Navigate to={homePathFor(user?.role)} replace />;
}

/** The route table of spec §2, with the DESIGN §9 resolutions. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: lazyElement(() => import('./pages/login-page.js'), { signIn: true }) },
      { path: '/logout', element: lazyElement(() => import('./pages/logout-page.js')) },
      { path: '/authorizer', element: lazyElement(() => import('./pages/authorizer-page.js')) },
      { path: '/403', element: lazyElement(() => import('./pages/forbidden-page.js')) },
      { path: '/forgot-password', element: lazyElement(() => import('./pages/forgot-password-page.js')) },
      { path: '/reset-password', element: lazyElement(() => import('./pages/reset-password-page.js')) },
      { path: '/set-password', element: lazyElement(() => import('./pages/reset-password-page.js')) },
      ...LEGAL_PAGES.map((page) => ({ path: page.path, element: lazyElement(() => import('./pages/legal-page.js')) })),
      {
        element: (
          <RequireSession>
            <ProtectedRoute roles={['admin', 'juror', 'user']}>
              <Suspense fallback={<LoadingPage />}>
                <AuthenticatedLayout />
              </Suspense>
            </ProtectedRoute>
          </RequireSession>
        ),
        children: [
          { path: '/profile', element: lazyElement(() => import('./pages/profile-page.js')) },
          { path: '/user', element: lazyElement(() => import('./pages/profile-page.js')) },
          { path: '/faq', element: lazyElement(() => import('./pages/faq-page.js')) },
          { path: '/helpdesk', element: lazyElement(() => import('./pages/helpdesk-page.js')) },
          { index: true, element: <HomeRedirect /> },
          // Workflow screens registered from src/extensions (jury portal, judging, results).
          ...registeredScreens().map((screen) => ({
            path: screen.path,
            element: <ProtectedRoute roles={screen.roles}>{lazyElement(screen.load)}</ProtectedRoute>,
          })),
          {
            element: (
              <ProtectedRoute roles={['admin']}>
                <Outlet />
              </ProtectedRoute>
            ),
            children: [
              { path: '/dashboard', element: lazyElement(() => import('./pages/dashboard-page.js')) },
              { path: '/sandbox', element: lazyElement(() => import('./pages/sandbox-page.js')) },
              { path: '/audit-log', element: lazyElement(() => import('./pages/audit-page.js')) },
              { path: '/trash', element: lazyElement(() => import('./pages/trash-page.js')) },
              { path: '/import-data', element: lazyElement(() => import('../engine/import/import-screen.js')) },
              { path: '/submissions', element: <Navigate to="/manage-contest" replace /> },
              { path: '/manage-account', element: lazyElement(() => import('./pages/accounts-page.js')) },
              // Entity screens from the descriptors; a spec route without one yet shows its placeholder.
              { path: '*', element: <EntityRoutes fallback={<FallbackPage />} /> },
            ],
          },
        ],
      },
    ],
  },
];

/** The app's browser router. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
