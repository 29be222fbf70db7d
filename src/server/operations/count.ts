import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import type { DataVersionSnapshot } from './list-cache.js';
import type { AppliedFilter } from './list-query.js';

/** The table of per-table row counts kept by triggers (created by the schema sync). */
export const ROW_COUNTS_TABLE = 'entity_row_counts';

/** Input of a count: the entity, whether the list is filtered, and the filtered query. */
export interface CountRequest {
  entity: LoadedEntity;
  filtered: boolean;
  /** `select ... from <table> where <filters>` without order or limit. */
  query: SelectQueryBuilder<any, any, any>;
  db: Kysely<any>;
  /** The parsed filters and search of the request, for strategies that read counters. */
  filters?: readonly AppliedFilter[];
  search?: string;
  /** The request's data versions (list-cache.ts), for strategies that keep totals per version. */
  versions?: DataVersionSnapshot;
}

/**
 * How a list's exact total is obtained. Pluggable so that a large entity can use a cheaper
 * strategy (a cached count keyed on the data's version, a capped count) without touching the list.
 */
export interface CountStrategy {
  count(request: CountRequest): Promise<number>;
  /**
   * Optionally, the same exact total as a query of one row and one column `total`, so a caller
   * can read it as a scalar subquery inside another statement (the list's first page: one round
   * trip for rows and total). A NULL `total` means "unknown here": the caller then calls `count`.
   */
  totalQuery?(request: CountRequest): SelectQueryBuilder<any, any, { total: unknown }>;
}

/** `count(*)` over the filtered query: exact, and cheap when an index makes the filter selective. */
export const exactCount: CountStrategy = {
  async count(request) {
    const row = await exactCount.totalQuery!(request).executeTakeFirstOrThrow();
    return Number(row.total);
  },
  totalQuery({ query, db }) {
    return db.selectFrom(query.clearSelect().select(sql`1`.as('one')).as('filtered')).select((eb) => eb.fn.countAll<number>().as('total'));
  },
};

/**
 * The default: the unfiltered total from the trigger-kept row counter (one indexed row, O(1) at
 * any table size), the filtered total by {@link exactCount}.
 */
export const counterThenExact: CountStrategy = {
  async count(request) {
    if (request.filtered) return exactCount.count(request);
    const row = await request.db.selectFrom(ROW_COUNTS_TABLE).select('row_count').where('table_name', '=', request.entity.descriptor.table).executeTakeFirst();
    return row ? Number(row.row_count) : exactCount.count(request);
  },
  totalQuery(request) {
    if (request.filtered) return exactCount.totalQuery!(request);
    // No counter row reads as NULL: the caller then asks `count`, which falls back to the exact count.
    return request.db.selectFrom(ROW_COUNTS_TABLE).select('row_count as total').where('table_name', '=', request.entity.descriptor.table);
  },
};
