import type { Kysely } from 'kysely';
import type { ListFilter, LoadedEntity } from '../../shared/descriptor/types.js';
import type { DataVersionSnapshot } from './list-cache.js';
import type { ListQuery } from './list-query.js';

/** What a list scope is asked about: the entity listed, the database, and who lists. */
export interface ListScopeInput {
  entity: LoadedEntity;
  db: Kysely<any>;
  /** The signed-in person (null: a system read). */
  userId: number | null;
  /**
   * The request's data versions (list-cache.ts), when it reads them: a scope may keep its answer
   * per person while the tables it read keep their version, instead of asking on every list.
   */
  versions?: DataVersionSnapshot;
}

/** Equality conditions a scope adds to a list: field → value (an entity's stored field). */
export type ListScopeConditions = Readonly<Record<string, string | number | boolean>>;

/**
 * A feature's narrowing of every list of an entity for one person (the editions feature: the
 * records of the current edition), applied to the list, its export and a bulk action's "all N
 * matching" alike. Returns nothing to leave the entity's lists as they are. A list that filters the
 * same field itself keeps its own filter (a link to another edition's records still works).
 */
export type ListScope = (input: ListScopeInput) => Promise<ListScopeConditions | undefined>;

const scopes: ListScope[] = [];

/** Registers a list scope (`ServerFeature.listScopes`); the same function twice counts once. */
export function registerListScope(scope: ListScope): void {
  if (!scopes.includes(scope)) scopes.push(scope);
}

/** Whether any scope is registered (a list skips the lookups otherwise). */
export function hasListScopes(): boolean {
  return scopes.length > 0;
}

/** The registered scopes' conditions for `input`, merged (empty when none applies). */
export async function listScopeOf(input: ListScopeInput): Promise<ListScopeConditions> {
  const merged: Record<string, string | number | boolean> = {};
  for (const scope of scopes) Object.assign(merged, await scope(input));
  return merged;
}

/**
 * `parsed` with the scope's conditions added as equality filters (named `scope:<field>`), except on
 * fields the request already filters exactly. The filters then reach the count strategies, the
 * page statements and the exports like any other.
 */
export function applyListScope(entity: LoadedEntity, parsed: ListQuery, conditions: ListScopeConditions): ListQuery {
  const properties = entity.schema.properties ?? {};
  const added = Object.entries(conditions)
    .filter(
      ([field]) => properties[field] && !parsed.filters.some((applied) => !applied.relation && applied.column === field && applied.filter.operator === 'eq'),
    )
    .map(([field, value]) => {
      const filter: ListFilter = { param: `scope:${field}`, field, operator: 'eq', input: 'text' } as ListFilter;
      return { filter, column: field, value };
    });
  return added.length === 0 ? parsed : { ...parsed, filters: [...parsed.filters, ...added] };
}
