import type { ClientExtension } from '../../engine/index.js';
import { mediaNames } from './shared/extension-names.js';

/**
 * Media's client face: the `media-image` cell (a console file as its picture, an external URL as a
 * link) and the `media-upload` widget (stores `/api/media/<id>`), both from a chunk of their own
 * (`lazy`). `MediaView` shows a stored value anywhere (the jury portal).
 */
export const mediaClient: ClientExtension<typeof mediaNames> = {
  lazy: () => import('./client/registrations.js'),
  fieldOnlyCells: mediaNames.fieldOnlyCells,
};

export { MediaView } from './client/lazy-media-view.js';
export type { MediaSize } from './client/media-view.js';
