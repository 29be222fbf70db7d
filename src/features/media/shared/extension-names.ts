import type { ExtensionNames } from '../../../shared/descriptor/extension-names.js';

/** The names of the cell and widget media registers in the browser (the server checks descriptors with them). */
export const mediaNames = {
  cells: ['media-image'],
  widgets: ['media-upload'],
  filterInputs: [],
  rowActions: [],
  // The cell shows its own value (a media link or an external URL) and reads no other field.
  fieldOnlyCells: ['media-image'],
} as const satisfies ExtensionNames;
