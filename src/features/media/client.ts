import type { ClientExtension } from '../../engine/index.js';
import { MediaImageCell } from './client/media-image-cell.js';
import { MediaUploadWidget } from './client/media-upload-widget.js';
import { mediaNames } from './shared/extension-names.js';

/**
 * Media's client face: the `media-image` cell (a console file as its picture, an external URL as a
 * link) and the `media-upload` widget (stores `/api/media/<id>`). `MediaView` shows a stored value
 * anywhere (the jury portal).
 */
export const mediaClient: ClientExtension<typeof mediaNames> = {
  cells: { 'media-image': MediaImageCell },
  widgets: { 'media-upload': MediaUploadWidget },
  filterInputs: {},
  rowActions: {},
  fieldOnlyCells: mediaNames.fieldOnlyCells,
};

export type { MediaSize } from './client/media-view.js';
export { MediaView } from './client/media-view.js';
