import type { ClientEntity, ListFilter, SortDirection } from '../../shared/descriptor/types.js';
import type { ListRequest } from '../data/entity-queries.js';

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
    : list.sendPageSize ? list.pageSize : undefined;
  const rawSort = query.get('sort');
  const sort = rawSort && list.sorts.includes(rawSort) ? rawSort : undefined;
  const rawDirection = query.get('direction');
  const direction: SortDirection | undefined =
    sort && (rawDirection === 'asc' || rawDirection === 'desc') ? rawDirection : sort ? 'asc' : undefined;
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
  return request.sort
    ? { field: request.sort, direction: request.direction ?? 'asc' }
    : entity.list.defaultSort;
}

/** The direction a click on a column header asks for: ascending first, then flipping. */
export function nextSortDirection(current: { field: string; direction: SortDirection }, field: string): SortDirection {
  if (current.field !== field) return 'asc';
  return current.direction === 'asc' ? 'desc' : 'asc';
}
