import { useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { AuthProvider } from './auth/auth-context.js';
import { FIRST_SCREEN_EVENT } from './first-screen.js';
import i18n from './i18n.js';
import type { createAppRouter } from './router.js';
import { ThemeRoot } from './theme-root.js';

// The theme root lives in its own file (the sign-in page started by itself uses it); the server's render imports it from here.
export { ThemeRoot };

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
