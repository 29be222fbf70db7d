/** The engine's registration API: what an application (`src/extensions/client`) imports to add its parts. */
export { registerExtension, registeredNames, registeredScreens } from './extension-registry.js';
export type {
  CellDefinition,
  CellRegistration,
  ClientExtension,
  FilterInputComponent,
  FilterInputProps,
  RegisteredScreen,
  RowActionContext,
  RowActionDefinition,
} from './extension-types.js';
export type { CellComponent, CellPlace, CellProps } from '../cells/cell-types.js';
export type { RowActionLook, RowActionTarget } from '../widgets/row-actions.js';
