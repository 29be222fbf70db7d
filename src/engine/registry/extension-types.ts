import type { TemplatesType, Widget } from '@rjsf/utils';
import type { ComponentType } from 'react';
import type { ExtensionNames } from '../../shared/descriptor/extension-names.js';
import type { Action, ClientEntity, ListFilter } from '../../shared/descriptor/types.js';
import type { Role, RoleDeclaration } from '../../shared/roles.js';
import type { CellComponent } from '../cells/cell-types.js';
import type { entityPaths } from '../data/entity-labels.js';
import type { EntityRecord } from '../data/entity-queries.js';
import type { RowActionLook, RowActionTarget } from '../widgets/row-actions.js';

/** A cell with its own idea of an empty value (money without an amount shows 'Not provided'). */
export interface CellDefinition {
  component: CellComponent;
  /** Whether `value` shows as empty; default null, undefined, blank text or an empty list. */
  isEmpty?: (value: unknown) => boolean;
}

/** A cell as registered: its component, or a {@link CellDefinition}. */
export type CellRegistration = CellComponent | CellDefinition;

/** What a filter input of the list's filter panel receives. */
export interface FilterInputProps {
  entity: ClientEntity;
  filter: ListFilter;
  /** The control's id: the panel's label points at it. */
  id: string;
  /** The filter's label, translated (for an `aria-label` where the control has no `id`). */
  label: string;
  /** The draft value, as text ('' for none). */
  value: string;
  /** Why the value cannot be applied, translated (shown under the control). */
  error?: string | undefined;
  onChange(value: string): void;
}

/** A filter input by the name a descriptor's `list.filters[].input` gives. */
export type FilterInputComponent = ComponentType<FilterInputProps>;

/** What a row action knows about its row. */
export interface RowActionContext {
  entity: ClientEntity;
  record: EntityRecord;
  paths: ReturnType<typeof entityPaths>;
  /** Asks before deleting the record (the confirm dialog), then deletes it. */
  confirmDelete(record: EntityRecord): void;
  /** True while this row's delete is in flight. */
  deleting: boolean;
}

/**
 * A row action by the name a descriptor's `list.actions` gives: an icon button on each row (its
 * look: tooltip and accessible-name keys, icon, colour).
 */
export interface RowActionDefinition extends RowActionLook {
  /** The permission the caller needs for it to show. */
  permission: Action;
  /** Where it goes or what it runs on this row. */
  target(context: RowActionContext): RowActionTarget;
  /** True while it is running on this row (a spinner, disabled). */
  busy?(context: RowActionContext): boolean;
}

/** Loads a part's module (its own chunk: nothing of it is in the entry). */
export type ModuleLoader = () => Promise<{ default: ComponentType }>;

/** A workflow screen that is not an entity's list, detail or form, registered by path. */
export interface LoadedScreen {
  /** The route path (react-router syntax). */
  path: string;
  /** Roles that may open it; others see /403. */
  roles: readonly Role[];
  /** Loads the screen's module (its own chunk). */
  load: ModuleLoader;
}

/** A path that leads on to another (an old address kept working), registered as a screen. */
export interface RedirectScreen {
  path: string;
  /** Roles that may follow it; others see /403. */
  roles: readonly Role[];
  /** Where it leads (replacing the history entry). */
  redirect: string;
}

/** A registered screen: one the app loads and shows, or one that leads elsewhere. */
export type RegisteredScreen = LoadedScreen | RedirectScreen;

/**
 * A route of the spec whose screen is not built yet, shown as its title and what it will hold,
 * until an entity descriptor claims the path (the entity routes' fallback).
 */
export interface PlaceholderScreen {
  path: string;
  titleKey: string;
  descriptionKey: string;
}

/**
 * An entry of the menu (the sidebar and the mobile menu) that is not an entity's list (those come
 * from the descriptors' `menu` blocks).
 */
export interface MenuEntry {
  /** Where it goes. */
  to: string;
  /** Its label's i18n key. */
  labelKey: string;
  /** A Radix icon's name (`'ReaderIcon'`), one the menu knows; a plain file icon otherwise. */
  icon: string;
  /** The group it shows under (titled `nav.groups.<group>`), as a descriptor's `menu.group`. */
  group: string;
  /** Its place in the group, among the entity entries' `menu.order`. */
  order: number;
  /** Roles that see it. */
  roles: readonly Role[];
}

/** A menu group's place among the groups; a group no registration places comes after these. */
export interface MenuGroup {
  id: string;
  order: number;
}

/**
 * A component the app shows in one of its places (a dashboard panel, a header item, a profile
 * card): loaded lazily, shown in `order` to the `roles` given.
 */
export interface RegisteredPart {
  /** Its name, unique in its slot. */
  id: string;
  /** Its place among the slot's parts (smallest first). */
  order: number;
  /** Roles that see it; every signed-in user when absent. */
  roles?: readonly Role[];
  /** Loads the component (its own chunk). */
  load: ModuleLoader;
  /**
   * Loaded once the place has shown, not with it (a heavy library: charts). Without it, the part
   * loads with the screen it sits on, and the first render shows it.
   */
  deferred?: boolean;
}

/**
 * A warning the delete confirm adds for one entity's record, in the user's language, when deleting
 * it touches more than the record ('This examination already has 12 grades...'); null when there is
 * nothing to say. A failed check says nothing (the delete itself still tells what blocks it).
 */
export type DeleteImpact = (record: EntityRecord, t: (key: string, options?: Record<string, unknown>) => string) => Promise<string | null>;

/** The names an extension may register under, per slot; any name when not given. */
type NamesOf<N extends ExtensionNames, K extends Exclude<keyof ExtensionNames, 'fieldOnlyCells'>> = N[K][number];

/**
 * What one {@link registerExtension} call registers, each slot by name. With a list of names
 * (`ClientExtension<typeof applicationNames>`), every named cell, widget, filter input and row action
 * must be given and no other: the list the server checks descriptors against cannot drift from
 * what the browser registers.
 */
export interface ClientExtension<N extends ExtensionNames = ExtensionNames> {
  /** List and detail cells, by a descriptor's `cell` / `relationCell`. */
  cells?: Readonly<Record<NamesOf<N, 'cells'>, CellRegistration>>;
  /** RJSF widgets, by a uiSchema's `ui:widget`. */
  widgets?: Readonly<Record<NamesOf<N, 'widgets'>, Widget>>;
  /** RJSF templates, by RJSF's names or a uiSchema's `ui:ObjectFieldTemplate` and the like. */
  templates?: Partial<TemplatesType> & Readonly<Record<string, unknown>>;
  /** Filter panel inputs, by a filter's `input`. */
  filterInputs?: Readonly<Record<NamesOf<N, 'filterInputs'>, FilterInputComponent>>;
  /** Row actions, by a descriptor's `list.actions`. */
  rowActions?: Readonly<Record<NamesOf<N, 'rowActions'>, RowActionDefinition>>;
  /** Those of `cells` that read only their own column's value (the names' `fieldOnlyCells`): lists showing them stay sparse. */
  fieldOnlyCells?: readonly NamesOf<N, 'cells'>[];
  /**
   * Roles the feature declares (`registerRoles`: the same declarations its server face registers):
   * the guards, `homePathFor` and the parts' `roles` read them.
   */
  roles?: readonly RoleDeclaration[];
  /** Workflow screens, by path. */
  screens?: readonly RegisteredScreen[];
  /** Routes shown as titled placeholders while no descriptor claims them. */
  placeholders?: readonly PlaceholderScreen[];
  /** Menu entries that are not an entity's list. */
  menuEntries?: readonly MenuEntry[];
  /** Where menu groups go among the others. */
  menuGroups?: readonly MenuGroup[];
  /** Panels of the dashboard page, in `order`. */
  dashboardPanels?: readonly RegisteredPart[];
  /** Items of the header's tool bar (before help, FAQ, language and logout), in `order`. */
  headerItems?: readonly RegisteredPart[];
  /** Cards of the profile page (after the profile and password forms), in `order`. */
  profileCards?: readonly RegisteredPart[];
  /** Warnings the delete confirm adds, by entity name (judging: an exam's grade count). */
  deleteImpacts?: Readonly<Record<string, DeleteImpact>>;
  /**
   * Loads more of the extension from a chunk of its own (its cells, widgets, row actions: code only
   * signed-in screens run), registered before the first signed-in screen renders
   * (`loadRegisteredExtensions`), so the sign-in page does not load it.
   */
  lazy?: () => Promise<{ default: ClientExtension<N> }>;
}
