import type { ExtensionNames } from '../../../shared/descriptor/extension-names.js';

/**
 * The names results registers in the browser (`../client.ts`), beside the engine's own: the
 * server reads this list at start-up to check descriptors. `grade-scores` is the grade detail's
 * per-criterion scores (criterion labels from the grade's exam) with the remarks.
 */
export const resultsNames = {
  cells: ['grade-scores'],
  widgets: [],
  filterInputs: [],
  rowActions: [],
} as const satisfies ExtensionNames;
