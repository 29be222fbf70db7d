import type { ExtensionNames } from '../../../shared/descriptor/extension-names.js';

/** The names of the cell and widget media registers in the browser (the server checks descriptors with them). */
export const mediaNames = {
  cells: ['media-image'],
  widgets: ['media-upload'],
  filterInputs: [],
  rowActions: [],
} as const satisfies ExtensionNames;
