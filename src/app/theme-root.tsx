import { lazy, type ReactNode, Suspense } from 'react';
import { THEME_SETTINGS, useAppearance } from './appearance.js';
import { useToastsRequested } from './notify.js';

const Toasts = lazy(() => import('./toasts.js'));

/**
 * The Radix Themes root as plain markup (the classes and data attributes `<Theme>` renders): the
 * sign-in page needs no more, and `<Theme>` itself brings the tooltip machinery into the first
 * load. The authenticated layout adds the real `<Theme>` with the same settings. Also the one
 * toast container (top-right, 4000 ms, at most 3), loaded when first asked for (`requestToasts`:
 * the first toast of the sign-in page, or any other screen loading); a toast shown earlier waits in
 * react-toastify's queue until it mounts. Its own file: the sign-in page started by itself
 * (sign-in-start.tsx) uses it without app.tsx, which brings the router.
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
