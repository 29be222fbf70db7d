import { Box, Flex, Theme } from '@radix-ui/themes';
import { QueryClientProvider } from '@tanstack/react-query';
import { Component, memo, type ReactNode, Suspense, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from '../../engine/i18n/use-translation.js';
import { SessionContext } from '../../engine/ui/session-context.js';
import { THEME_SETTINGS, useAppearance } from '../appearance.js';
import { useAuth } from '../auth/auth-context.js';
import { DialogProvider } from '../dialogs/dialog-provider.js';
import { LoadingPage } from '../pages/loading-page.js';
import { ErrorFallback } from '../pages/route-error-page.js';
import { getQueryClient } from '../query-client.js';
import { Footer } from './footer.js';
import { Header } from './header.js';
import { MobileMenu } from './mobile-menu.js';
import { Sidebar } from './sidebar.js';

// The frame around the screen takes no props: it renders again only for what it reads itself (the
// active menu item follows the location), not each time the screen's URL changes (a list's 'Next').
const FrameSidebar = memo(Sidebar);
const FrameHeader = memo(Header);
const FrameMobileMenu = memo(MobileMenu);
const FrameFooter = memo(Footer);

/** Catches a screen's render failure so the frame (menu, header) stays usable; resets on navigation. */
class ScreenBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }
  override render() {
    return this.state.error ? <ErrorFallback error={this.state.error} /> : this.props.children;
  }
}

/**
 * The signed-in frame: sidebar (or mobile menu), header, the screen, the footer; and the providers
 * the screens need (TanStack Query, Radix `<Theme>`, the dialog service, the session; the toast
 * service is the router's, above every route).
 */
export function AuthenticatedLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const appearance = useAppearance();
  const { user } = useAuth();
  const session = useMemo(() => ({ user }), [user]);
  return (
    <SessionContext.Provider value={session}>
      <QueryClientProvider client={getQueryClient()}>
        <Theme appearance={appearance} {...THEME_SETTINGS} hasBackground={false}>
          <DialogProvider>
            <Flex minHeight="100vh">
              <a href="#main" className="skip-link">
                {t('common.skipToContent')}
              </a>
              <FrameSidebar />
              <Flex direction="column" flexGrow="1" minWidth="0">
                <FrameMobileMenu />
                <FrameHeader />
                <Box asChild flexGrow="1" p={{ initial: '3', sm: '5' }}>
                  <main id="main" tabIndex={-1}>
                    <ScreenBoundary resetKey={location.pathname}>
                      <Suspense fallback={<LoadingPage />}>
                        <Outlet />
                      </Suspense>
                    </ScreenBoundary>
                  </main>
                </Box>
                <FrameFooter />
              </Flex>
            </Flex>
          </DialogProvider>
        </Theme>
      </QueryClientProvider>
    </SessionContext.Provider>
  );
}

export { AuthenticatedLayout as Component };
export default AuthenticatedLayout;
