import { lazy, type ReactElement, Suspense } from 'react';
import type { MediaSize } from './media-view.js';

const LoadedMediaView = lazy(() => import('./media-view.js').then((module) => ({ default: module.MediaView })));

/**
 * `MediaView` (media-view.tsx) as the client face exports it: loaded with its first
 * use, since the face is in every page's first load (the sign-in page's too) and the view brings
 * TanStack Query and Radix Themes' kit. Shows nothing for the moment it loads.
 */
export function MediaView(props: { value: unknown; size: MediaSize; alt?: string }): ReactElement {
  return (
    <Suspense fallback={null}>
      <LoadedMediaView {...props} />
    </Suspense>
  );
}
