/**
 * Query keys, hierarchical so that a mutation invalidates everything of one entity with
 * `['entities', name]`.
 */
export const queryKeys = {
  /** Every query of one entity: lists and records. */
  entity: (name: string) => ['entities', name] as const,
  /** One page of an entity's list with its exact request parameters. */
  list: (name: string, params: object) => ['entities', name, 'list', params] as const,
  /** One record. */
  detail: (name: string, id: number | string) => ['entities', name, 'detail', String(id)] as const,
  /** The client-safe descriptors of `GET /api/meta/entities`. */
  meta: () => ['meta', 'entities'] as const,
};
