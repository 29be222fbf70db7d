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
  const merge = (slot: keyof ExtensionNames) => [...new Set(sets.flatMap((set) => set[slot]))];
  return { cells: merge('cells'), widgets: merge('widgets'), filterInputs: merge('filterInputs'), rowActions: merge('rowActions') };
}
