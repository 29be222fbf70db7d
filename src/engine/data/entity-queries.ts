import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse } from '../../shared/api-contract.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { versionTag } from '../../shared/record-version.js';
import { http } from './http-client.js';
import { includesOf, type ListRequest, listPath, listQueryOf, refetchesOnFocus } from './list-url.js';
import { queryKeys } from './query-keys.js';

/** A record as the API returns it: snake_case fields, `id` always present. */
export type EntityRecord = Record<string, unknown> & { id: number };

export { includesOf, type ListRequest, refetchesOnFocus, toListQuery } from './list-url.js';

/**
 * One page of an entity's list. The previous page stays on screen while the next loads.
 *
 * @example useQuery(entityListOptions(entity, { page: 2, filters: {} }))
 */
export function entityListOptions(entity: ClientEntity, request: ListRequest) {
  return queryOptions({
    queryKey: queryKeys.list(entity.name, request),
    queryFn: ({ signal }) => http.get<ListResponse<EntityRecord>>(listPath(entity), { query: listQueryOf(entity, request), signal }),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: refetchesOnFocus(entity),
  });
}

/** One record by id (`GET /api/<endpoint>/<id>`). */
export function entityRecordOptions(entity: ClientEntity, id: number) {
  return queryOptions({
    queryKey: queryKeys.detail(entity.name, id),
    queryFn: async ({ signal }) => {
      const include = includesOf(entity, 'detail');
      const query = include.length > 0 ? { include: include.join(',') } : {};
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
export async function updateRecord(entity: ClientEntity, id: number, body: Record<string, unknown>, ifMatch?: string): Promise<EntityRecord> {
  const headers = ifMatch ? { 'if-match': ifMatch } : undefined;
  return (await http.put<{ data: EntityRecord }>(`/${entity.endpoint}/${id}`, body, { headers })).data;
}

/** Deletes a record. */
export async function deleteRecord(entity: ClientEntity, id: number): Promise<void> {
  await http.delete<void>(`/${entity.endpoint}/${id}`);
}
