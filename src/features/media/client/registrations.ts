import type { ClientExtension } from '../../../engine/index.js';
import type { mediaNames } from '../shared/extension-names.js';
import { MediaImageCell } from './media-image-cell.js';
import { MediaUploadWidget } from './media-upload-widget.js';

/**
 * Media's cell and widget: code only signed-in screens run, loaded from the client face's `lazy` (a
 * chunk of its own, not the sign-in page's).
 */
const mediaRegistrations: ClientExtension<typeof mediaNames> = {
  cells: { 'media-image': MediaImageCell },
  widgets: { 'media-upload': MediaUploadWidget },
  filterInputs: {},
  rowActions: {},
};
export default mediaRegistrations;
