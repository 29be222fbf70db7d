import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { LoadingPage } from '../pages/loading-page.js';
import { useAuth } from './auth-context.js';
import { tokenStore } from './session.js';

/** Where a guard came from, so sign-in can return there. */
export interface FromState {
  from?: { pathname: string; search?: string; hash?: string };
}

/**
 * The authenticated layout's rule: without an access token, outside `/logout`, and with
 * no `access` query parameter, go to `/logout` (which sends a visitor on to `/login`, keeping the
 * page first asked for).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { isAuthenticated, isBootstrapping } = useAuth();
  const location = useLocation();
  if (isBootstrapping) return <LoadingPage />;
  const hasAccessParam = new URLSearchParams(location.search).has('access');
  if (!isAuthenticated && location.pathname !== '/logout' && !hasAccessParam) {
    // The session may have just ended here (a 401, another sign-in) or by a sign-out in another
    // tab: say so, rather than racing the session watcher with a reason-less redirect.
    const reason = tokenStore.lastEndReason;
    if (reason === 'LOGOUT') return <Navigate to="/login" replace state={{ authorisedLogout: true }} />;
    return <Navigate to="/logout" replace state={{ from: location, reason: reason ?? undefined }} />;
  }
  return <>{children}</>;
}

/** The protected-route wrapper: not signed in → `/login`; a role not in `roles` → `/403`. */
export function ProtectedRoute({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const { isAuthenticated, isBootstrapping, user } = useAuth();
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location } satisfies FromState} />;
  if (isBootstrapping || !user) return <LoadingPage />;
  if (!roles.includes(user.role)) return <Navigate to="/403" replace />;
  return <>{children}</>;
}
