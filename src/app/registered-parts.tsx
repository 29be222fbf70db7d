import { type ReactElement, Suspense } from 'react';
import type { RegisteredPart } from '../engine/registry/index.js';
import { type Preloadable, preloadable } from './preloadable.js';

const components = new WeakMap<RegisteredPart, Preloadable<object>>();

/** The part's component: loaded lazily, once, and rendered at once when it is already in. */
export function partComponent(part: RegisteredPart): Preloadable<object> {
  let component = components.get(part);
  if (!component) {
    component = preloadable(part.load);
    components.set(part, component);
  }
  return component;
}

/** The parts `role` sees, in order (none without a role). */
export function partsFor(parts: readonly RegisteredPart[], role: string | undefined): RegisteredPart[] {
  return role === undefined ? [] : parts.filter((part) => part.roles === undefined || (part.roles as readonly string[]).includes(role));
}

/**
 * Loads the parts a screen shows with it (those `role` sees, all when it is not known yet), so its
 * first render shows them; deferred parts load when they render. A part that fails to load here
 * tries again when it renders.
 */
export function preloadParts(parts: readonly RegisteredPart[], role: string | undefined): Promise<unknown> {
  const shown = role === undefined ? parts : partsFor(parts, role);
  return Promise.all(
    shown
      .filter((part) => !part.deferred)
      .map((part) =>
        partComponent(part)
          .preload()
          .catch(() => undefined),
      ),
  );
}

/** The parts `role` sees, each in its own Suspense boundary (nothing while one loads). */
export function RegisteredParts({ parts, role }: { parts: readonly RegisteredPart[]; role: string | undefined }): ReactElement {
  return (
    <>
      {partsFor(parts, role).map((part) => {
        const Part = partComponent(part);
        return (
          <Suspense key={part.id} fallback={null}>
            <Part />
          </Suspense>
        );
      })}
    </>
  );
}
