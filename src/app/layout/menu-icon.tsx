import { type ComponentType, useEffect, useSyncExternalStore } from 'react';

/** A menu icon: a component taking the SVG size and `aria-hidden`. */
export type Icon = ComponentType<{ width?: number; height?: number; 'aria-hidden'?: boolean }>;

type Icons = Readonly<Record<string, Icon>>;

let icons: Icons | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

/** Loads the icons' chunk once; every deferred icon on screen then draws itself. */
function loadIcons(): void {
  if (loading) return;
  loading = import('./menu-icons.js').then(
    (module) => {
      icons = module.MENU_ICON_COMPONENTS;
      for (const listener of listeners) listener();
    },
    () => {
      loading = undefined;
    },
  );
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const cache = new Map<string, Icon>();

/**
 * The Radix icon `name` as a component that draws an empty square of the icon's size until the
 * icons' chunk has loaded (asked for after the first paint), then the icon. One component per name.
 */
export function deferredIcon(name: string): Icon {
  let component = cache.get(name);
  if (!component) {
    const Deferred: Icon = (props) => {
      const loaded = useSyncExternalStore(
        subscribe,
        () => icons,
        () => icons,
      );
      // Once the page is idle: the first screen's own code and data come first.
      useEffect(() => {
        if (typeof requestIdleCallback === 'function') {
          const handle = requestIdleCallback(loadIcons, { timeout: 3000 });
          return () => cancelIdleCallback(handle);
        }
        const timer = setTimeout(loadIcons, 500);
        return () => clearTimeout(timer);
      }, []);
      const Real = loaded?.[name];
      if (Real) return <Real {...props} />;
      const size = props.width ?? 15;
      return <span aria-hidden style={{ display: 'inline-block', width: size, height: props.height ?? size, flexShrink: 0 }} />;
    };
    Deferred.displayName = `Deferred(${name})`;
    component = Deferred;
    cache.set(name, component);
  }
  return component;
}
