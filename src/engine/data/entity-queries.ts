import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse } from '../../shared/api-contract.js';
import type { ClientEntity, SortDirection } from '../../shared/descriptor/types.js';
import { http, type QueryParams } from './http-client.js';
import { queryKeys } from './query-keys.js';
import { versionTag } from '../../shared/record-version.js';

/** A record as the API returns it: snake_case fields, `id` always present. */
export type EntityRecord = Record<string, unknown> & { id: number };

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

function withIncludes(query: QueryParams, include: string[]): QueryParams {
  return include.length > 0 ? { ...query, include: include.join(',') } : query;
}

/**
 * One page of an entity's list. The previous page stays on screen while the next loads.
 *
 * @example useQuery(entityListOptions(entity, { page: 2, filters: {} }))
 */
export function entityListOptions(entity: ClientEntity, request: ListRequest) {
  return queryOptions({
    queryKey: queryKeys.list(entity.name, request),
    queryFn: ({ signal }) =>
      http.get<ListResponse<EntityRecord>>(`/${entity.endpoint}`, { query: withIncludes(toListQuery(request), includesOf(entity, 'list')), signal }),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: refetchesOnFocus(entity),
  });
}

/** One record by id (`GET /api/<endpoint>/<id>`). */
export function entityRecordOptions(entity: ClientEntity, id: number) {
  return queryOptions({
    queryKey: queryKeys.detail(entity.name, id),
    queryFn: async ({ signal }) => {
      const query = withIncludes({}, includesOf(entity, 'detail'));
      return (await http.get<{ data: EntityRecord }>(`/${entity.endpoint}/${id}`, { query, signal })).data;
    },
    refetchOnWindowFocus: refetchesOnFocus(entity),
  });
}

/**
 * The version tag of a record as the server's `ETag` states it (`W/"<id>-<updated_at in ms>"`),
 * sent as `If-Match` so a save over someone else's newer change is refused (409) instead of
 * silently overwriting it. `undefined` when the record has no parsable `updated_at`.
 */
export function versionTagOf(record: Record<string, unknown>): string | undefined {
  return versionTag(record);
}

/** Creates a record; resolves with the stored record. */
export async function createRecord(entity: ClientEntity, body: Record<string, unknown>): Promise<EntityRecord> {
  return (await http.post<{ data: EntityRecord }>(`/${entity.endpoint}`, body)).data;
}

/** Updates a record, refused with 409 when `ifMatch` no longer matches the stored version. */
export async function updateRecord(
  entity: ClientEntity,
  id: number,
  body: Record<string, unknown>,
  ifMatch?: string,
): Promise<EntityRecord> {
  const headers = ifMatch ? { 'if-match': ifMatch } : undefined;
  return (await http.put<{ data: EntityRecord }>(`/${entity.endpoint}/${id}`, body, { headers })).data;
}

/** Deletes a record. */
export async function deleteRecord(entity: ClientEntity, id: number): Promise<void> {
  await http.delete<void>(`/${entity.endpoint}/${id}`);
}
