import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { CurrentEditionData, CurrentEditionUpdate } from '../shared/edition-contract.js';

/** Editions' query keys. */
const keys = { current: ['editions', 'current'] as const };

/** The signed-in person's current edition and every edition (`GET /api/me/edition`). */
export const currentEditionOptions = () =>
  queryOptions({
    queryKey: keys.current,
    queryFn: ({ signal }) => http.get<{ data: CurrentEditionData }>('/me/edition', { signal }).then((answer) => answer.data),
    staleTime: 60_000,
  });

/** Chooses the edition to work in (`PUT /api/me/edition`). */
export const chooseEdition = (editionId: number) =>
  http.put<{ data: CurrentEditionData }>('/me/edition', { edition_id: editionId } satisfies CurrentEditionUpdate).then((answer) => answer.data);

/**
 * After a switch: the new answer stored, then every other query refetched, so each screen (lists,
 * dashboard, results) shows the new edition's records.
 */
export async function editionChanged(client: QueryClient, data: CurrentEditionData): Promise<void> {
  client.setQueryData(keys.current, data);
  await client.invalidateQueries({ predicate: (query) => !(query.queryKey[0] === keys.current[0] && query.queryKey[1] === keys.current[1]) });
}
