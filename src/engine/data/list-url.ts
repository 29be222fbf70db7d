import type { ClientEntity, SortDirection } from '../../shared/descriptor/types.js';
import { buildUrl, type QueryParams } from './http-client.js';

// How a list page is asked for, without React or TanStack Query: shared by the list queries and
// the boot script (src/app/boot.ts), which starts the first list request before the app loads,
// so both build the very same URL.

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

/** Whether an entity's list refetches on window focus (spec §4: not for customers and companies). */
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

/** The query string parameters of one list page: the request's and the list's includes. */
export function listQueryOf(entity: ClientEntity, request: ListRequest): QueryParams {
  return withIncludes(toListQuery(request), includesOf(entity, 'list'));
}

/** The whole URL of one list page (`/api/contests?page=1&per_page=15&include=...`), as the HTTP client sends it. */
export function listUrl(entity: ClientEntity, request: ListRequest): string {
  return buildUrl(listPath(entity), listQueryOf(entity, request));
}
