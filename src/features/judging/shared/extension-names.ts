import type { ExtensionNames } from '../../../shared/descriptor/extension-names.js';

/**
 * The names of the cells, widgets, filter inputs and row actions this application registers in
 * the browser (`./client/index.ts`), beside the engine's own. The server reads this list at
 * start-up to check descriptors (it never loads the browser's components); the client's
 * registration call is typed by it, so a name here without its component, or a component
 * without its name here, does not compile.
 */
export const judgingNames = {
  cells: ['rating-stars', 'criteria-table', 'juror-conflicts', 'contest-review'],
  widgets: ['criteria-editor'],
  filterInputs: [],
  rowActions: [],
} as const satisfies ExtensionNames;
