/** The engine's registration API: what the features' client faces (`src/registry/client.ts`) register through. */

export type { CellComponent, CellPlace, CellProps } from '../cells/cell-types.js';
export type { RowActionLook, RowActionTarget } from '../widgets/row-actions.js';
export {
  loadRegisteredExtensions,
  registerExtension,
  registeredDashboardPanels,
  registeredDeleteImpacts,
  registeredHeaderItems,
  registeredMenuEntries,
  registeredMenuGroups,
  registeredNames,
  registeredPlaceholders,
  registeredProfileCards,
  registeredScreens,
} from './extension-registry.js';
export type {
  CellDefinition,
  CellRegistration,
  ClientExtension,
  DeleteImpact,
  FilterInputComponent,
  FilterInputProps,
  LoadedScreen,
  MenuEntry,
  MenuGroup,
  ModuleLoader,
  PlaceholderScreen,
  RedirectScreen,
  RegisteredPart,
  RegisteredScreen,
  RowActionContext,
  RowActionDefinition,
} from './extension-types.js';
