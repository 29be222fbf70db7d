import type { RegistryWidgetsType, TemplatesType, Widget } from '@rjsf/utils';
import type { ExtensionNames } from '../../shared/descriptor/extension-names.js';
import { registerFieldOnlyCells } from '../../shared/list-request.js';
import { registerRoles } from '../../shared/roles.js';
import type {
  CellDefinition,
  ClientExtension,
  DeleteImpact,
  FilterInputComponent,
  MenuEntry,
  MenuGroup,
  PlaceholderScreen,
  RegisteredPart,
  RegisteredScreen,
  RowActionDefinition,
} from './extension-types.js';

type Slot = 'cells' | 'widgets' | 'templates' | 'filterInputs' | 'rowActions';

const slots = {
  cells: new Map<string, CellDefinition>(),
  widgets: new Map<string, Widget>(),
  templates: new Map<string, unknown>(),
  filterInputs: new Map<string, FilterInputComponent>(),
  rowActions: new Map<string, RowActionDefinition>(),
};
const screens = new Map<string, RegisteredScreen>();
const placeholders = new Map<string, PlaceholderScreen>();
const menuGroups = new Map<string, MenuGroup>();
const menuEntries: MenuEntry[] = [];
const deleteImpacts = new Map<string, DeleteImpact[]>();
type PartSlot = 'dashboardPanels' | 'headerItems' | 'profileCards';
const parts: Record<PartSlot, Map<string, RegisteredPart>> = { dashboardPanels: new Map(), headerItems: new Map(), profileCards: new Map() };
const PART_NAMES: Record<PartSlot, string> = { dashboardPanels: 'dashboard panel', headerItems: 'header item', profileCards: 'profile card' };
let version = 0;

const SLOT_NAMES: Record<Slot, string> = {
  cells: 'cell',
  widgets: 'widget',
  templates: 'template',
  filterInputs: 'filter input',
  rowActions: 'row action',
};

/** The identity two registrations of one name are compared by (a cell's component, else the value). */
const identity = (slot: Slot, value: unknown) => (slot === 'cells' ? (value as CellDefinition).component : value);

function add<T>(slot: Slot, entries: Readonly<Record<string, T>> | undefined, normalise: (value: T) => unknown = (value) => value): void {
  const map = slots[slot] as Map<string, unknown>;
  for (const [name, raw] of Object.entries(entries ?? {})) {
    const value = normalise(raw as T);
    const existing = map.get(name);
    if (existing === undefined) map.set(name, value);
    // The same part again (a module evaluated twice) changes nothing; another part is an error.
    else if (identity(slot, existing) !== identity(slot, value)) throw new Error(`The ${SLOT_NAMES[slot]} "${name}" is registered twice.`);
  }
}

/**
 * Registers cells, widgets, templates, filter inputs, row actions and screens by name, and the
 * parts the app shows in its own places (menu entries, dashboard panels, header items, profile
 * cards): the one call through which the engine registers what it ships and each feature what it
 * adds (`src/registry/client.ts`). A name registered twice with another part is an error, so an
 * application cannot silently replace a shipped part. Typed by a list of names
 * (`registerExtension<typeof applicationNames>(...)`), the call must give exactly those names.
 *
 * @example registerExtension<typeof applicationNames>({ cells: { 'rating-stars': RatingStarsCell }, screens });
 */
export function registerExtension<N extends ExtensionNames = ExtensionNames>(extension: ClientExtension<N>): void {
  add('cells', extension.cells, (cell) => Object.freeze(typeof cell === 'function' ? { component: cell } : { ...cell }));
  add('widgets', extension.widgets);
  add('templates', extension.templates as Readonly<Record<string, unknown>> | undefined);
  add('filterInputs', extension.filterInputs);
  add('rowActions', extension.rowActions);
  registerFieldOnlyCells(extension.fieldOnlyCells);
  if (extension.roles) registerRoles(extension.roles);
  addKeyed(screens, extension.screens, (screen) => screen.path, 'screen');
  addKeyed(placeholders, extension.placeholders, (placeholder) => placeholder.path, 'placeholder');
  for (const group of extension.menuGroups ?? []) {
    const existing = menuGroups.get(group.id);
    if (existing && existing.order !== group.order) throw new Error(`The menu group "${group.id}" is placed twice.`);
    menuGroups.set(group.id, group);
  }
  for (const entry of extension.menuEntries ?? []) if (!menuEntries.includes(entry)) menuEntries.push(entry);
  for (const slot of Object.keys(parts) as PartSlot[]) addKeyed(parts[slot], extension[slot], (part) => part.id, PART_NAMES[slot]);
  for (const [entity, impact] of Object.entries(extension.deleteImpacts ?? {})) {
    const list = deleteImpacts.get(entity) ?? [];
    if (!list.includes(impact)) deleteImpacts.set(entity, [...list, impact]);
  }
  if (extension.lazy && !lazyParts.has(extension.lazy)) {
    lazyParts.add(extension.lazy);
    pendingLazyParts.push(extension.lazy);
  }
  version += 1;
}

type LazyPart = () => Promise<{ default: ClientExtension }>;
/** Every `lazy` loader registered (one registered again is not loaded twice), and those not loaded yet. */
const lazyParts = new Set<LazyPart>();
const pendingLazyParts: LazyPart[] = [];
let loadingLazyParts: Promise<void> | undefined;

/**
 * Loads and registers what the extensions registered as `lazy` (their cells, widgets, row actions:
 * code only signed-in screens run). The app waits for it before its first signed-in screen renders;
 * resolved at once when there is nothing left to load. A chunk that fails to load is tried again
 * on the next call.
 */
export function loadRegisteredExtensions(): Promise<void> {
  if (!loadingLazyParts && pendingLazyParts.length === 0) return Promise.resolve();
  loadingLazyParts ??= loadPendingLazyParts().finally(() => {
    loadingLazyParts = undefined;
  });
  return loadingLazyParts;
}

async function loadPendingLazyParts(): Promise<void> {
  // A loaded part may register lazy parts of its own: load until none is left.
  while (pendingLazyParts.length > 0) {
    const batch = pendingLazyParts.splice(0);
    const loaded = await Promise.allSettled(batch.map((load) => load()));
    let failure: { reason: unknown } | undefined;
    loaded.forEach((result, index) => {
      if (result.status === 'fulfilled') registerExtension(result.value.default);
      else {
        pendingLazyParts.push(batch[index]!);
        failure ??= { reason: result.reason };
      }
    });
    if (failure) throw failure.reason;
  }
}

/** Adds `items` by key; the same item again changes nothing, another under a taken key is an error. */
function addKeyed<T>(map: Map<string, T>, items: readonly T[] | undefined, key: (item: T) => string, what: string): void {
  for (const item of items ?? []) {
    const existing = map.get(key(item));
    if (existing !== undefined && existing !== item) throw new Error(`The ${what} "${key(item)}" is registered twice.`);
    map.set(key(item), item);
  }
}

const has = <T>(map: Map<string, T>, name: string | undefined): T | undefined => (name === undefined ? undefined : map.get(name));

/** The delete warnings registered for an entity (none by default). */
export function registeredDeleteImpacts(entity: string): readonly DeleteImpact[] {
  return deleteImpacts.get(entity) ?? [];
}

/** The cell registered under `kind`, or `undefined`. */
export function registeredCell(kind: string | undefined): CellDefinition | undefined {
  return has(slots.cells, kind);
}

/** The filter input registered under `input`, or `undefined`. */
export function registeredFilterInput(input: string | undefined): FilterInputComponent | undefined {
  return has(slots.filterInputs, input);
}

/** The row action registered under `name`, or `undefined`. */
export function registeredRowAction(name: string | undefined): RowActionDefinition | undefined {
  return has(slots.rowActions, name);
}

/** The widget registered under `name`, or `undefined`. */
export function registeredWidget(name: string): Widget | undefined {
  return slots.widgets.get(name);
}

const snapshots = new Map<Slot, { version: number; value: Record<string, unknown> }>();

/** A slot as a plain object, the same object until the next registration (RJSF compares props by identity). */
function snapshot(slot: Slot): Record<string, unknown> {
  const cached = snapshots.get(slot);
  if (cached?.version === version) return cached.value;
  const value = Object.freeze(Object.fromEntries(slots[slot] as Map<string, unknown>));
  snapshots.set(slot, { version, value });
  return value;
}

/** Every registered widget by name, for RJSF's `widgets`. */
export function registeredWidgets(): RegistryWidgetsType {
  return snapshot('widgets') as RegistryWidgetsType;
}

/** Every registered template by name, for RJSF's `templates`. */
export function registeredTemplates(): Partial<TemplatesType> {
  return snapshot('templates') as Partial<TemplatesType>;
}

/** Names registered per slot (what the client can render; compared with what the server accepts). */
export function registeredNames(): ExtensionNames {
  return {
    cells: [...slots.cells.keys()],
    widgets: [...slots.widgets.keys()],
    filterInputs: [...slots.filterInputs.keys()],
    rowActions: [...slots.rowActions.keys()],
  };
}

/** Every registered workflow screen, in registration order. */
export function registeredScreens(): RegisteredScreen[] {
  return [...screens.values()];
}

/** Every registered placeholder route, in registration order. */
export function registeredPlaceholders(): PlaceholderScreen[] {
  return [...placeholders.values()];
}

/** Every registered menu entry, in registration order (the menu sorts them by group and order). */
export function registeredMenuEntries(): MenuEntry[] {
  return [...menuEntries];
}

/** Every placed menu group, by its order. */
export function registeredMenuGroups(): MenuGroup[] {
  return [...menuGroups.values()].sort((a, b) => a.order - b.order);
}

const byOrder = (slot: PartSlot) => [...parts[slot].values()].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));

/** The dashboard's panels, by order. */
export function registeredDashboardPanels(): RegisteredPart[] {
  return byOrder('dashboardPanels');
}

/** The header's items, by order. */
export function registeredHeaderItems(): RegisteredPart[] {
  return byOrder('headerItems');
}

/** The profile page's cards, by order. */
export function registeredProfileCards(): RegisteredPart[] {
  return byOrder('profileCards');
}
