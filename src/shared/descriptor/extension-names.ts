import { CELL_KINDS, FILTER_INPUTS, ROW_ACTIONS, WIDGET_NAMES } from './types.js';

/**
 * The names of the client's registered parts a descriptor may use: cells (`cell`, `relationCell`),
 * widgets (`ui:widget` at any depth of a uiSchema), filter inputs (`list.filters[].input`) and row
 * actions (`list.actions`).
 *
 * Why names, not the registry: the server checks every descriptor at start-up, and it never loads
 * the browser's registry (React components). So each name lives once as data: the engine's in
 * {@link SHIPPED_NAMES}, an application's in `src/extensions/extension-names.ts`; the client's
 * registration call is typed by those lists (a name without its component, or a component
 * without its name, does not compile) and start-up refuses a descriptor naming anything else.
 */
export interface ExtensionNames {
  cells: readonly string[];
  widgets: readonly string[];
  filterInputs: readonly string[];
  rowActions: readonly string[];
  /**
   * Those of `cells` that read nothing but their own column's value: a list showing them may still
   * ask the API for the shown fields only (`listFieldsOf`). Any other registered cell may read any
   * field of the record, so a list using one asks for every field.
   */
  fieldOnlyCells?: readonly string[];
}

/** The names of the parts the engine ships. */
export const SHIPPED_NAMES: ExtensionNames = Object.freeze({
  cells: CELL_KINDS,
  widgets: WIDGET_NAMES,
  filterInputs: FILTER_INPUTS,
  rowActions: ROW_ACTIONS,
});

/** The names of several sets together (the engine's and an application's). */
export function mergeExtensionNames(...sets: ExtensionNames[]): ExtensionNames {
  const merge = (slot: Exclude<keyof ExtensionNames, 'fieldOnlyCells'>) => [...new Set(sets.flatMap((set) => set[slot]))];
  const fieldOnlyCells = [...new Set(sets.flatMap((set) => set.fieldOnlyCells ?? []))];
  return { cells: merge('cells'), widgets: merge('widgets'), filterInputs: merge('filterInputs'), rowActions: merge('rowActions'), fieldOnlyCells };
}
