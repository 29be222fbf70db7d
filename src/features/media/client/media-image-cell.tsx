import type { ReactElement } from 'react';
import type { CellProps } from '../../../engine/index.js';
import { MediaView } from './media-view.js';

/**
 * Cell `media-image`: a console file as its thumbnail (the field's label beside it says what it
 * is, so the picture's text is empty), an external URL as a link (never hot-linked).
 */
export function MediaImageCell({ value, place }: CellProps): ReactElement | null {
  return <MediaView value={value} size={place} />;
}
