import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { THEME_SETTINGS, useAppearance } from './appearance.js';
import { AuthProvider } from './auth/auth-context.js';
import { FIRST_SCREEN_EVENT } from './first-screen.js';
import i18n from './i18n.js';
import { useToastsRequested } from './notify.js';
import type { createAppRouter } from './router.js';

const Toasts = lazy(() => import('./toasts.js'));

/**
 * The Radix Themes root as plain markup (the classes and data attributes `<Theme>` renders): the
 * sign-in page needs no more, and `<Theme>` itself brings the tooltip machinery into the first
 * load. The authenticated layout adds the real `<Theme>` with the same settings. Also the one
 * toast container (top-right, 4000 ms, at most 3), loaded when first asked for (`requestToasts`:
 * the first toast of the sign-in page, or any other screen loading); a toast shown earlier waits in
 * react-toastify's queue until it mounts.
 */
export function ThemeRoot({ children }: { children: ReactNode }) {
  const appearance = useAppearance();
  const toasts = useToastsRequested();
  return (
    <div
      className={`radix-themes ${appearance}`}
      data-is-root-theme="true"
      data-accent-color={THEME_SETTINGS.accentColor}
      data-gray-color={THEME_SETTINGS.grayColor}
      data-has-background="true"
      data-panel-background={THEME_SETTINGS.panelBackground}
      data-radius={THEME_SETTINGS.radius}
      data-scaling={THEME_SETTINGS.scaling}
    >
      {children}
      {toasts && (
        <Suspense fallback={null}>
          <Toasts theme={appearance} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The providers around the router: i18n, auth, the theme root and toasts. TanStack Query, the
 * dialog service and the full `<Theme>` live in the authenticated layout.
 */
export function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  // After the first commit: the first screen is in the document.
  useEffect(() => void window.dispatchEvent(new Event(FIRST_SCREEN_EVENT)), []);
  return (
    <I18nextProvider i18n={i18n}>
      <AuthProvider>
        <ThemeRoot>
          <RouterProvider router={router} />
        </ThemeRoot>
      </AuthProvider>
    </I18nextProvider>
  );
}
