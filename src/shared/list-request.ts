import { CELL_KINDS, type ClientEntity, type ListFilter, ROW_ACTIONS, type SortDirection } from './descriptor/types.js';

// How a list page is asked for, as plain functions of a client descriptor: the list screens, the
// boot script (src/app/boot.ts) and the server's first-list answer (server/routes/meta.ts) all build
// a list's URL with these, so they name the very same request.

/** A scalar query value; `null`/`undefined`/`''` are left out of the URL. */
export type QueryScalar = string | number | boolean | null | undefined;

/**
 * Query parameters. A nested object becomes bracketed keys (`{ q: { agency_name: 'x' } }` →
 * `q[agency_name]=x`); an array repeats the key joined by commas (`include=customer,category`).
 */
export type QueryParams = Record<string, QueryScalar | readonly (string | number)[] | Record<string, QueryScalar>>;

/** The query string of `query` (without `?`), bracketed keys for nested objects, comma-joined arrays. */
export function encodeQuery(query: QueryParams): string {
  const params = new URLSearchParams();
  const add = (key: string, value: QueryScalar | readonly (string | number)[]) => {
    if (value === null || value === undefined || value === '') return;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  };
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value as Record<string, QueryScalar>)) add(`${key}[${inner}]`, innerValue);
    } else {
      add(key, value as QueryScalar | readonly (string | number)[]);
    }
  }
  return params.toString();
}

/** What one list request asks the server for. */
export interface ListRequest {
  page: number;
  /** Omitted when the descriptor leaves the page size to the server. */
  perPage?: number;
  sort?: string;
  direction?: SortDirection;
  search?: string;
  /** Filter values by query parameter name (`status`, `q[customer_id]`). */
  filters: Record<string, string>;
}

/**
 * Descriptor options the engine reads that the descriptor types may not declare yet; absent means
 * the default (lists refetch when the window regains focus).
 */
interface ListBehaviour {
  refetchOnFocus?: boolean;
}

/** Whether an entity's list refetches on window focus (a descriptor's `refetchOnFocus: false` turns it off, as customers and companies do). */
export function refetchesOnFocus(entity: ClientEntity): boolean {
  return (entity.list as ClientEntity['list'] & ListBehaviour).refetchOnFocus ?? true;
}

/**
 * The relations a screen shows, to ask the API to include: those of its relation cells (and, on a
 * detail page, of sections shown only when a relation is present), limited to allowed includes.
 */
export function includesOf(entity: ClientEntity, place: 'list' | 'detail'): string[] {
  const displays = place === 'list' ? entity.list.columns : entity.detail.sections.flatMap((section) => section.fields);
  const names = new Set(displays.filter((d) => d.cell === 'relation' && d.relation).map((d) => d.relation!));
  if (place === 'detail') for (const section of entity.detail.sections) if (section.showIf && entity.relations[section.showIf]) names.add(section.showIf);
  return entity.includes.filter((name) => names.has(name));
}

/** The query string of a list request, in the API's names (`per_page`, `q[...]`). */
export function toListQuery(request: ListRequest): QueryParams {
  const query: QueryParams = { page: request.page };
  if (request.perPage) query.per_page = request.perPage;
  if (request.sort) query.sort = request.sort;
  if (request.sort && request.direction) query.direction = request.direction;
  if (request.search?.trim()) query.search = request.search.trim();
  for (const [param, value] of Object.entries(request.filters)) if (value !== '') query[param] = value;
  return query;
}

export function withIncludes(query: QueryParams, include: string[]): QueryParams {
  return include.length > 0 ? { ...query, include: include.join(',') } : query;
}

/** The API path of an entity's list (`/contests`). */
export function listPath(entity: ClientEntity): string {
  return `/${entity.endpoint}`;
}

/** The fields a list screen asks for: the record's (`fields`) and each included relation's (`fields[customer]`). */
export interface ListFields {
  fields: string[];
  includeFields: Record<string, string[]>;
}

const SHIPPED_CELLS: readonly string[] = CELL_KINDS;
/** Registered cells that read only their own column's value (`ExtensionNames.fieldOnlyCells`). */
const fieldOnlyCells = new Set<string>();

/** Marks registered cells as reading only their own column's value (both sides register the names their features declare). */
export function registerFieldOnlyCells(names: readonly string[] | undefined): void {
  for (const name of names ?? []) fieldOnlyCells.add(name);
}
const SHIPPED_ACTIONS: readonly string[] = ROW_ACTIONS;

/**
 * The fields a list screen shows, to ask the API for only those (a much smaller answer):
 * the id and title field, each column's field and, for a relation column, the related record's
 * shown and secondary fields. `undefined` (every field) when a column uses a cell or the list a row
 * action that an application registered (unless the cell is registered as reading only its own
 * field: {@link registerFieldOnlyCells}): those may read any field of the record.
 */
export function listFieldsOf(entity: ClientEntity): ListFields | undefined {
  const { columns, actions } = entity.list;
  const kinds = columns.flatMap((column) => [column.cell ?? 'text', ...(column.cell === 'relation' ? [column.relationCell ?? 'text'] : [])]);
  if (kinds.some((kind) => !SHIPPED_CELLS.includes(kind) && !fieldOnlyCells.has(kind)) || actions.some((action) => !SHIPPED_ACTIONS.includes(action)))
    return undefined;
  const readable = new Set([
    ...Object.entries(entity.jsonSchema.properties ?? {})
      .filter(([field, property]) => !entity.virtual.includes(field) && !(property as { writeOnly?: boolean }).writeOnly)
      .map(([field]) => field),
    ...Object.keys(entity.computed),
  ]);
  // The id comes whatever is asked for.
  const fields = new Set<string>();
  for (const field of [entity.titleField, ...columns.map((column) => column.field)]) if (field !== 'id' && readable.has(field)) fields.add(field);
  const includeFields: Record<string, string[]> = {};
  for (const name of includesOf(entity, 'list')) {
    const allowed = entity.relations[name]!.fields;
    const shown = new Set<string>();
    for (const column of columns) {
      if (column.cell !== 'relation' || column.relation !== name) continue;
      for (const field of [column.display ?? 'name', ...(column.secondary ?? [])]) if (field !== 'id' && allowed.includes(field)) shown.add(field);
    }
    includeFields[name] = [...shown];
  }
  return { fields: [...fields], includeFields };
}

/** The query string parameters of one list page: the request's, the list's includes and the fields it shows. */
export function listQueryOf(entity: ClientEntity, request: ListRequest): QueryParams {
  const query = withIncludes(toListQuery(request), includesOf(entity, 'list'));
  const shown = listFieldsOf(entity);
  if (!shown) return query;
  const sparse: QueryParams = { ...query, fields: shown.fields };
  for (const [name, fields] of Object.entries(shown.includeFields)) sparse[`fields[${name}]`] = fields;
  return sparse;
}

/** The whole URL of one list page under `base` (`/api/contests?page=1&per_page=15&include=...`). */
export function listUrl(entity: ClientEntity, request: ListRequest, base = '/api'): string {
  const search = encodeQuery(listQueryOf(entity, request));
  return `${base}${listPath(entity)}${search ? `?${search}` : ''}`;
}

/** The most records a page may hold (the API caps `per_page` at 100). */
export const MAX_PAGE_SIZE = 100;

function positiveInt(raw: string | null): number | undefined {
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const value = Number(raw);
  return value >= 1 ? value : undefined;
}

/**
 * Reads a list's state from the browser's query string: `page` (default 1), the descriptor's page
 * size parameter (`size`, capped at 100; absent when the server decides), `sort` and `direction`
 * from the allowed sorts only, `search`, and each descriptor filter by its parameter name.
 * Anything invalid falls back to the default rather than reaching the server.
 */
export function readListParams(entity: ClientEntity, query: URLSearchParams): ListRequest {
  const { list } = entity;
  const page = positiveInt(query.get('page')) ?? 1;
  const perPage = list.pageSizeParam
    ? Math.min(positiveInt(query.get(list.pageSizeParam)) ?? list.pageSize, MAX_PAGE_SIZE)
    : list.sendPageSize
      ? list.pageSize
      : undefined;
  const rawSort = query.get('sort');
  const sort = rawSort && list.sorts.includes(rawSort) ? rawSort : undefined;
  const rawDirection = query.get('direction');
  const direction: SortDirection | undefined = sort && (rawDirection === 'asc' || rawDirection === 'desc') ? rawDirection : sort ? 'asc' : undefined;
  const search = query.get('search')?.trim() || undefined;
  const filters: Record<string, string> = {};
  for (const filter of list.filters) {
    const value = query.get(filter.param)?.trim();
    if (value && filterValueUsable(entity, filter, value)) filters[filter.param] = value;
  }
  return { page, perPage, sort, direction, search, filters };
}

/** A filter's name without the `q[...]` wrapper (`q[customer_id]` → `customer_id`), for its label key. */
export function filterParamName(param: string): string {
  return /^q\[(.+)\]$/.exec(param)?.[1] ?? param;
}

/**
 * Whether a filter value can be sent: a number or reference filter only takes a whole number the field can
 * hold (its schema `minimum`, so a customer ID only when it is a positive integer); anything
 * else is ignored rather than refused by the server.
 */
export function filterValueUsable(entity: ClientEntity, filter: ListFilter, value: string): boolean {
  if (filter.input !== 'number' && filter.input !== 'reference') return true;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) return false;
  const minimum = filter.field.includes('.') ? undefined : entity.jsonSchema.properties?.[filter.field]?.minimum;
  return typeof minimum !== 'number' || Number(value) >= minimum;
}

/** The sort shown as active: the URL's, else the descriptor's default. */
export function effectiveSort(entity: ClientEntity, request: ListRequest): { field: string; direction: SortDirection } {
  return request.sort ? { field: request.sort, direction: request.direction ?? 'asc' } : entity.list.defaultSort;
}

/** The direction a click on a column header asks for: ascending first, then flipping. */
export function nextSortDirection(current: { field: string; direction: SortDirection }, field: string): SortDirection {
  if (current.field !== field) return 'asc';
  return current.direction === 'asc' ? 'desc' : 'asc';
}
