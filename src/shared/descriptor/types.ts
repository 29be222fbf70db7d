/**
 * Entity descriptor types: how the console shows, guards and stores one entity whose record shape
 * is its JSON Schema. `entities/<name>.json` is validated against `schemas/descriptor.schema.json`
 * and then loaded (see `load-descriptor.ts`) into a frozen {@link EntityDescriptor}; the browser
 * receives the {@link ClientEntity} form from `GET /api/meta/entities`.
 *
 * Field names are the schema's property names (snake_case, as stored and as sent on the wire).
 */

/** A JSON Schema (draft-07) object, kept loose: the schema itself is data. */
export type JsonSchema = {
  $id?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
};

/** Roles allowed per action; an empty list means nobody (a read-only entity has empty writes). */
export type Action = 'list' | 'read' | 'create' | 'update' | 'delete';
export const ACTIONS: readonly Action[] = ['list', 'read', 'create', 'update', 'delete'];
export type Permissions = Record<Action, string[]>;

/** The permissions resolved for one caller: what the client may offer. */
export type ResolvedPermissions = Record<Action, boolean>;

/**
 * The cell kinds the engine ships, by which a value is rendered in a list cell or a detail field
 * (the client's cell registry; an application registers more, see `extension-names.ts`):
 * - `text` plain text; `truncate` text cut at `truncate` characters with the full text as title;
 * - `badge` the value through `badges` (label key + colour); `status-badge` active/inactive (a string
 *   `active`/`inactive` or a boolean) as the Active/Inactive badge;
 * - `date` long date (UTC, en-US style, localized); `relative-date` long date plus relative time;
 * - `image` a round thumbnail of an http(s) URL, hidden on load error;
 * - `link` an http(s) URL opened in a new tab (`linkLabel` the text); `email` a mailto link;
 *   `phone` a tel link; `relation` a field of an included related record (`relation`, `display`),
 *   rendered by `relationCell`;
 * - `presence` whether the value is set: badge `badges.set` plus the long date, or `badges.unset`;
 * - `money` an amount with its currency (`{ amount, currency }`, or a bare number) formatted in the
 *   reader's language with the currency code and its decimals ('MYR 25,000.50', 'JPY 25,000');
 *   empty when there is no amount.
 */
export const CELL_KINDS = [
  'text',
  'truncate',
  'badge',
  'status-badge',
  'date',
  'relative-date',
  'image',
  'link',
  'email',
  'phone',
  'number',
  'money',
  'relation',
  'presence',
] as const;
/** A shipped cell kind. */
export type ShippedCellKind = (typeof CELL_KINDS)[number];
/** A cell kind: a shipped one or one an application registers (checked at start-up, `extension-names.ts`). */
export type CellKind = ShippedCellKind | (string & {});

/**
 * The widget names the engine ships, which a uiSchema may use (`'ui:widget'`, at any depth): the
 * client's theme registers each (`src/engine/rjsf-radix/index.ts` is typed so that it does);
 * with the application's own (`src/extensions/extension-names.ts`) they are the names start-up
 * accepts. Fields without one get the widget RJSF picks from the schema type (text, number,
 * checkbox, select for enums).
 */
export const WIDGET_NAMES = [
  'text',
  'textarea',
  'email',
  'password',
  'number',
  'select',
  'searchable-select',
  'radio',
  'switch',
  'active-switch',
  'checkbox',
  'date',
  'datetime',
  'url',
  'currency',
  'hidden',
  'amount',
  'reference-select',
  'calendar-date',
  'native-date',
] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];

/** Colours of a badge, Radix Themes accent names. */
export type BadgeColor = 'gray' | 'green' | 'red' | 'yellow' | 'amber' | 'blue' | 'orange' | 'purple' | 'cyan';

/** One value's badge: an i18n key and a colour. */
export interface BadgeOption {
  label: string;
  color: BadgeColor;
}

/** How one field is displayed (list column or detail field). */
export interface FieldDisplay {
  field: string;
  /** i18n key of the label; default `entities.<name>.fields.<field>`. */
  label?: string;
  /** Default `text`. */
  cell?: CellKind;
  /** For `truncate`: characters shown. */
  truncate?: number;
  /** For `badge`: per value; values not listed use `fallbackBadge`. */
  badges?: Record<string, BadgeOption>;
  fallbackBadge?: BadgeOption;
  /** For `relation`: the relation name and the related field shown. */
  relation?: string;
  display?: string;
  /** i18n key shown when the value is empty (list placeholder such as 'No strategy'); `{{id}}` is the raw value. */
  empty?: string;
  /** For `link`: i18n key of the link text ('View Video'). */
  linkLabel?: string;
  /** For `relation`: how the related value renders (default `text`). */
  relationCell?: CellKind;
  /** For `relation`: further related fields shown muted under the main one (email, id). */
  secondary?: string[];
  /** Text (i18n key) shown after the value when it equals the key as text (`{ true: 'entities.customer.can_access' }`). */
  notes?: Record<string, string>;
}

/** A list column: a displayed field, optionally sortable. */
export interface ListColumn extends FieldDisplay {
  /** Whether clicking the header sorts by it; the field must then be in `list.sorts`. */
  sortable?: boolean;
  /** Whether the cell links to the record's detail page. */
  linkToDetail?: boolean;
}

export type SortDirection = 'asc' | 'desc';

/** Filter operators: exact match, case-insensitive substring, range bounds. */
export type FilterOperator = 'eq' | 'ilike' | 'gte' | 'lte';

/**
 * The filter inputs the engine ships: how a filter is entered in the list's filter bar. `reference`
 * picks a record of the entity a belongsTo relation on the filtered field points at, through the
 * searchable select (its id is the filter's value). An application registers more by name.
 */
export const FILTER_INPUTS = ['text', 'number', 'select', 'date', 'boolean', 'reference'] as const;
/** A filter input: a shipped one or one an application registers. */
export type FilterInput = (typeof FILTER_INPUTS)[number] | (string & {});

/** The row actions the engine ships (each needs its permission: read, update, delete). */
export const ROW_ACTIONS = ['view', 'edit', 'delete'] as const;
/** A row action: a shipped one or one an application registers. */
export type RowActionName = (typeof ROW_ACTIONS)[number] | (string & {});

/** What each option of a `reference` filter shows: fields of the relation's target entity. */
export interface FilterOptionFields {
  /** Field shown as the option's label, followed by `(#id)`; default the target's `titleField`. */
  label?: string;
  /** Field shown under the label (an e-mail). */
  description?: string;
}

/**
 * A list filter: the query parameter (`status`, or `q[customer_id]`), the field it applies to (a
 * column of this entity, or `relation.field` through a belongsTo relation), the operator and how
 * it is entered. `values` maps accepted parameter values to stored values (`active` → `true`).
 */
export interface ListFilter {
  param: string;
  field: string;
  operator: FilterOperator;
  input: FilterInput;
  /** i18n key of the label; default `entities.<name>.filters.<param without q[ ]>`. */
  label?: string;
  values?: Record<string, string | number | boolean>;
  /** With `input: 'reference'`: the target's fields each option shows. */
  optionFields?: FilterOptionFields;
  /**
   * With `input: 'reference'`: the record's ID can also be typed in a number field (labelled by the
   * filter's label), applied only when it is a positive integer; the searchable select beside it
   * still picks a record by name.
   */
  typedId?: boolean;
}

/** The list screen and the list endpoint. */
export interface ListConfig {
  columns: ListColumn[];
  /** Row actions offered, in this order (each also needs its permission). */
  actions: RowActionName[];
  /** Allowed `sort` values; default the sortable columns. */
  sorts: string[];
  defaultSort: { field: string; direction: SortDirection };
  /** The server's default `per_page` (at most 100). */
  pageSize: number;
  /**
   * The browser URL's page-size parameter (`size` for companies/customers); `null` when the page
   * size comes from the server and is not in the URL (categories).
   */
  pageSizeParam: string | null;
  /** With `pageSizeParam` null, whether the list call still sends `per_page` = `pageSize` (contests). */
  sendPageSize: boolean;
  filters: ListFilter[];
  /** Fields `search` matches case-insensitively as substrings (any of them). */
  search: string[];
  /** Whether the list reloads when the window regains focus (spec: not customers, companies). */
  refetchOnFocus: boolean;
  /** The filter card (filters applied together, Reset, optional Sort By), instead of the search/filter toolbar. */
  filterPanel?: FilterPanel;
  /** Optional list texts (i18n keys); each absent one is not shown. */
  texts: ListTexts;
}

/** The list's 'Filters & Sorting' card. */
export interface FilterPanel {
  /** i18n key of the heading; default `common.filters.title`. */
  title?: string;
  /** Filter parameters offered, in order; default every filter. */
  filters?: string[];
  /** Whether Sort By and direction are offered. */
  sort?: boolean;
}

/** Optional texts of a list screen. */
export interface ListTexts {
  /** '{{total}} total contests'. */
  total?: string;
  /** 'Loading contests...'. */
  loading?: string;
  /** Under the empty text without filters ('Get started by creating your first contest.'). */
  emptyHint?: string;
  /** Under the empty text with filters ('Try adjusting your filters to see more results.'). */
  emptyFilteredHint?: string;
  /**
   * The load error as a heading ('Error loading contests') with the server's message under it,
   * instead of the one line of `texts.loadError` ('Error loading companies: …').
   */
  errorTitle?: string;
  /** With `errorTitle`: shown when the error has no message; default `errors.somethingWentWrongTryAgain`. */
  errorFallback?: string;
}

/** A group of fields on the detail page. */
export interface DetailSection {
  /** i18n key of the section title. */
  title: string;
  fields: FieldDisplay[];
  /** Shown only when this field (usually a relation name) has a value. */
  showIf?: string;
}

export interface DetailConfig {
  sections: DetailSection[];
  /** i18n key shown for an empty value; default `common.not_provided`. */
  empty: string;
  /** Header buttons opening another screen of the record; `:id` in `to` is the record's id. */
  links: Array<{ label: string; to: string }>;
}

/** RJSF uiSchema for a form, keyed by field (`{ status: { 'ui:widget': 'active-switch' } }`). */
export type UiSchema = Record<string, Record<string, unknown>>;

/** One form: which fields, in order, with widgets and defaults. */
export interface FormConfig {
  fields: string[];
  uiSchema: UiSchema;
  /** Initial values beyond the schema's `default`s. */
  defaults: Record<string, unknown>;
}

/**
 * The form an entity's own self-service role fills in (entrants writing their entries): its
 * `fields` are the only fields such a write may carry (everything else is the server's), `required`
 * the ones that must be filled before the record is handed in, and `jurorFields` the ones the jury
 * portal shows (never who wrote the record).
 */
export interface PortalFormConfig extends FormConfig {
  required: string[];
  jurorFields: string[];
}

/** A belongsTo relation: `field` holds the id of a record of `entity`. */
export interface Relation {
  kind: 'belongsTo';
  /** The foreign key field of this entity (`category_id`). */
  field: string;
  /** The related entity's name (`category`). */
  entity: string;
  /** Fields of the related record an `include` returns (id always included). */
  fields: string[];
  /** What deleting the related record does: `restrict` (409) or `set-null`. */
  onDelete: 'restrict' | 'set-null';
}

/** Comparison operators between two fields of one record. */
export type ComparisonOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';

/**
 * A rule between two fields of a write, checked on both sides when both have a value: `field`
 * must be `operator` `other` (`password_confirmation` eq `password`, `end_date` gte `start_date`).
 * A failure is a field error on `field` with keyword `compare` and the rule's `message` key.
 */
export interface Comparison {
  field: string;
  operator: ComparisonOperator;
  other: string;
  /** i18n key of the message ('Passwords don't match'). */
  message: string;
}

/**
 * A read-only field computed when read, never stored: `count` is the number of records of
 * `entity` whose belongsTo relation `relation` points at this record (a campaign's contests).
 */
export interface ComputedField {
  kind: 'count';
  entity: string;
  relation: string;
}

/** Server hooks by name, run in order (registered in `src/extensions/hooks`). */
export interface Hooks {
  /** Run after validation, before the row is written (derive a slug, hash a password). */
  beforeWrite: string[];
}

/**
 * i18n keys of the entity's own texts. Each defaults to `entities.<name>.<key in snake_case>`, so a
 * descriptor rarely lists them.
 */
export interface EntityTexts {
  /** Page title of the list ('Manage Category'). */
  title: string;
  /** Heading of the list ('Category List'). */
  listTitle: string;
  detailTitle: string;
  createTitle: string;
  editTitle: string;
  /** The list's create button and the create form's submit ('Create Category'). */
  createButton: string;
  submitCreate: string;
  submitUpdate: string;
  empty: string;
  /** 'Error loading categories: {{message}}'. */
  loadError: string;
  /** 'Error loading category: {{message}}'. */
  loadOneError: string;
  notFound: string;
  backToList: string;
  deleteTitle: string;
  /** 'Are you sure you want to delete category "{{name}}"?' */
  deleteConfirm: string;
  invalidId: string;
  created: string;
  updated: string;
  deleted: string;
  createFailed: string;
  updateFailed: string;
  deleteFailed: string;
}
export const ENTITY_TEXT_KEYS: ReadonlyArray<keyof EntityTexts> = [
  'title',
  'listTitle',
  'detailTitle',
  'createTitle',
  'editTitle',
  'createButton',
  'submitCreate',
  'submitUpdate',
  'empty',
  'loadError',
  'loadOneError',
  'notFound',
  'backToList',
  'deleteTitle',
  'deleteConfirm',
  'invalidId',
  'created',
  'updated',
  'deleted',
  'createFailed',
  'updateFailed',
  'deleteFailed',
];

/** Browser routes (without leading slash); detail and edit derive from `list`. */
export interface EntityRoutes {
  list: string;
  create: string;
  /** Default `<list>/:id`. */
  detail: string;
  /** Default `<list>/edit/:id`. */
  edit: string;
}

/**
 * A loaded, validated, defaulted and frozen descriptor. The JSON file may omit anything with a
 * default (see `schemas/descriptor.schema.json`); after loading every key is present.
 */
export interface EntityDescriptor {
  /** Singular, snake_case (`category`). */
  name: string;
  /** Schema file name without `.schema.json`; default `name`. */
  schema: string;
  /** API path segment under /api (`categories`). */
  endpoint: string;
  /** Table name; default `endpoint` with `-` as `_`. */
  table: string;
  routes: EntityRoutes;
  /** The field naming a record in titles and confirmations (`name`). */
  titleField: string;
  /** English singular noun used in server messages ('Invalid category ID'); default `name` with spaces. */
  label: string;
  texts: EntityTexts;
  /** Whether it appears in the sidebar (and where: lower first). */
  menu: { show: boolean; order: number; icon?: string; label: string; group: string };
  permissions: Permissions;
  list: ListConfig;
  detail: DetailConfig;
  forms: { create: FormConfig; edit: FormConfig; portal?: PortalFormConfig };
  /** Per field and ajv keyword, an i18n key (`{ name: { required: 'validation.name.required' } }`). */
  messages: Record<string, Record<string, string>>;
  relations: Record<string, Relation>;
  /** Relation names an `include` may ask for; default all relations. */
  includes: string[];
  hooks: Hooks;
  /** Fields (or field sets) unique across the table. */
  unique: Array<string | string[]>;
  /** Importable at /import-data when present. */
  import?: ImportConfig;
  /** Bulk actions of the list. */
  bulk?: BulkConfig;
  /** Form fields validated but never stored (`password_confirmation`). */
  virtual: string[];
  /** Rules between two fields of a write (confirmation equals password, end not before start). */
  comparisons: Comparison[];
  /** Read-only fields computed at read time (a count of related records), by field name. */
  computed: Record<string, ComputedField>;
  /** Exact list totals kept by the database (see {@link CountsConfig}). */
  counts: CountsConfig;
}

/**
 * Counters the database keeps for a large entity so exact list totals cost one indexed read:
 * the table's row count always, plus one count per value of each `groupBy` field (statement-level
 * triggers). A list filtered by one of these fields, or by a relation through one of them (contests
 * by the customer's company through `customer_id`), reads its total from the counters; covering
 * indexes `(field, sort, id)` are created for each allowed sort so deep pages scan only an index.
 * A combination `a+b` (`edition_id+status`) counts each pair of values, for lists filtered by both
 * (every list scoped to the current edition), with its `(a, b, sort, id)` indexes.
 */
export interface CountsConfig {
  groupBy: string[];
}

/** A loaded entity: descriptor, its schema, and the schemas derived from them. */
export interface LoadedEntity {
  descriptor: EntityDescriptor;
  /** The entity's JSON Schema, as written. */
  schema: JsonSchema;
  /** Body schema of POST: the create form's fields, `additionalProperties: false`. */
  createSchema: JsonSchema;
  /** Body schema of PUT: the edit form's fields, `additionalProperties: false`. */
  updateSchema: JsonSchema;
  /** Where it was loaded from (for messages). */
  file: string;
}

/** Descriptor keys the browser never receives. */
export type ServerOnlyKey = 'hooks' | 'permissions' | 'table';

/**
 * What `GET /api/meta/entities` returns per entity: the descriptor without server-only keys, the
 * schema (without `writeOnly` fields' defaults or anything server-only), derived form schemas, and
 * the caller's permissions as booleans.
 */
export interface ClientEntity extends Omit<EntityDescriptor, ServerOnlyKey> {
  jsonSchema: JsonSchema;
  createSchema: JsonSchema;
  updateSchema: JsonSchema;
  permissions: ResolvedPermissions;
}

/** The body of `GET /api/meta/entities`. */
export interface MetaEntitiesResponse {
  data: ClientEntity[];
  /** Present when the server has extra translations (`LOCALES_DIR`) at `/api/locales/<language>`. */
  extraTranslations?: true;
}

/** How an entity is imported from a file: the fields columns map to, and the key to update by. */
export interface ImportConfig {
  fields: string[];
  /** A row whose key matches a stored record updates it. */
  key?: string;
  /** Rows of the downloadable sample file. */
  sample?: Array<Record<string, string | number | boolean>>;
}

/** Bulk actions: the fields that may be set to one value on many rows at once. */
export interface BulkConfig {
  set?: string[];
}
