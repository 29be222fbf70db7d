// Deep imports keep the sign-in page's first load free of the whole Radix Themes barrel.
import { Theme } from '@radix-ui/themes/components/theme';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { AuthProvider, useAuth } from './auth/auth-context.js';
import i18n from './i18n.js';
import type { createAppRouter } from './router.js';

/** Radix Themes, light by default and dark when the profile says so; the one toast container. */
function ThemeRoot({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const appearance = user?.preferences?.theme === 'dark' ? 'dark' : 'light';
  return (
    <Theme appearance={appearance} accentColor="indigo" grayColor="slate" radius="medium" panelBackground="solid">
      {children}
      <ToastContainer position="top-right" autoClose={4000} limit={3} theme={appearance} newestOnTop />
    </Theme>
  );
}

/** The providers around the router: i18n, TanStack Query, auth, theme. */
export function App({ router, queryClient }: { router: ReturnType<typeof createAppRouter>; queryClient: QueryClient }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <ThemeRoot>
            <RouterProvider router={router} />
          </ThemeRoot>
        </AuthProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
