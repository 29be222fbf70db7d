import { type ComponentType, lazy, type ReactElement, useState } from 'react';

/** A lazily loaded component that can be loaded ahead of its first render. */
export type Preloadable<P extends object> = ComponentType<P> & {
  /** Starts loading the module (once); resolves when it is in. */
  preload(): Promise<unknown>;
};

/**
 * `React.lazy` that renders at once when its module is already in. React suspends on a lazy
 * component's first render whatever the state of its module, and reveals a Suspense boundary's
 * content at the earliest 300 ms after its fallback: the signed-in path (shell, engine, screen)
 * lost time to fallbacks of modules the boot script had already fetched.
 * `preload()` (src/app/main.tsx, before the first render) loads the module; a component whose module
 * is in renders it directly, one whose module is not yet in goes through `React.lazy` as before.
 * Each mount keeps the path it started on, so a screen never remounts when its module arrives.
 * A failed load is not kept: the next `preload()` or render tries again.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const start = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(start);
  function Preloaded(props: P): ReactElement {
    const [Direct] = useState(() => loaded);
    return Direct ? <Direct {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Preloaded, { preload: start });
}
