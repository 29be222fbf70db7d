import { type ReactNode, useMemo } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { toast } from './lazy-toast.js';
import { type PageLinkProps, type PageNavigation, PageNavigationContext } from './page-navigation.js';

function RouterLink({ to, replace, ...props }: PageLinkProps) {
  return <Link to={to} replace={replace} {...props} />;
}

function RouterRedirect({ to }: { to: string }) {
  return <Navigate to={to} replace />;
}

/** The app's {@link PageNavigation}: react-router's location state, navigation and links. */
export function RouterNavigationProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { state } = useLocation();
  const value = useMemo<PageNavigation>(
    () => ({
      state: state ?? null,
      goOn: (to, notice) => {
        if (notice) toast.success(notice);
        void navigate(to, { replace: true });
      },
      Redirect: RouterRedirect,
      Link: RouterLink,
    }),
    [navigate, state],
  );
  return <PageNavigationContext.Provider value={value}>{children}</PageNavigationContext.Provider>;
}
