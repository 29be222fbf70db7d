import { queryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { ClientEntity, MetaEntitiesResponse } from '../../shared/descriptor/types.js';
import { announceExtraTranslations } from './extra-translations.js';
import { http } from './http-client.js';
import { queryKeys } from './query-keys.js';

export { onExtraTranslations } from './extra-translations.js';

/**
 * The descriptors the signed-in admin may use, loaded once per session (they change only when
 * the server restarts with new descriptors, so they never go stale on their own).
 */
export const metaEntitiesOptions = queryOptions({
  queryKey: queryKeys.meta(),
  queryFn: async ({ signal }) => {
    const body = await http.get<MetaEntitiesResponse>('/meta/entities', { signal });
    if (body.extraTranslations) announceExtraTranslations();
    return body.data;
  },
  staleTime: Infinity,
});

/** The client-safe entity descriptors (`GET /api/meta/entities`). */
export function useMetaEntities(): UseQueryResult<ClientEntity[]> {
  return useQuery(metaEntitiesOptions);
}

/** The descriptor named `name` from a loaded list, or undefined. */
export function findEntity(entities: readonly ClientEntity[] | undefined, name: string): ClientEntity | undefined {
  return entities?.find((entity) => entity.name === name);
}
