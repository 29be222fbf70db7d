import { type Kysely, sql } from 'kysely';
import { containsPattern } from '../../../shared/sql-text.js';
import type { CountRequest, CountStrategy } from '../count.js';
import { counterThenExact, exactCount } from '../count.js';
import { readDataVersion } from '../list-cache.js';

/** The table of per-value row counts kept by triggers for `counts.groupBy` fields (see `db/sync/counters.ts`). */
export const GROUP_COUNTS_TABLE = 'entity_group_counts';

const OPERATORS = { eq: '=', ilike: 'ilike', gte: '>=', lte: '<=' } as const;

/** Totals through a relation kept per filter (at the data version they were counted at). */
const MAX_RELATION_TOTALS = 1024;
const relationTotalsByDb = new WeakMap<Kysely<any>, Map<string, { version: string; total: number }>>();

function relationTotals(db: Kysely<any>): Map<string, { version: string; total: number }> {
  let totals = relationTotalsByDb.get(db);
  if (!totals) {
    totals = new Map();
    relationTotalsByDb.set(db, totals);
  }
  return totals;
}

/**
 * Exact totals from the database's counters wherever the descriptor's `counts.groupBy` allows:
 * - no filter: the table's row counter;
 * - one exact filter on a counted field (`status=approved`): that value's counter;
 * - one filter through a relation whose foreign key is counted (`q[agency_name]` → the customers
 *   whose company matches, through the trigram index): the sum of those customers' counters;
 * - anything else (search, combined filters): `count(*)` of the filtered query, which the
 *   covering indexes keep index-only.
 * Every figure is exact: the counters change in the same transaction as the rows.
 */
export const groupedCounts: CountStrategy = {
  async count(request: CountRequest) {
    if (!request.filtered) return counterThenExact.count(request);
    const countRow = async () => Number((await groupedCounts.totalQuery!(request).executeTakeFirst())?.total ?? 0);
    const filters = request.filters ?? [];
    const relation = filters.length === 1 && request.search === undefined ? filters[0]!.relation : undefined;
    if (!relation) return countRow();
    // A total through a relation sums one counter per matching related row (hundreds for a common
    // company word): it is kept until either table changes, which one version read tells.
    const applied = filters[0]!;
    const table = request.entity.descriptor.table;
    const key = JSON.stringify([table, applied.column, relation.field, applied.filter.operator, applied.value]);
    const version = await readDataVersion(request.db, [table, relation.target.descriptor.table], request.versions);
    const totals = relationTotals(request.db);
    const known = totals.get(key);
    if (known?.version === version) return known.total;
    const total = await countRow();
    totals.delete(key);
    totals.set(key, { version, total });
    if (totals.size > MAX_RELATION_TOTALS) totals.delete(totals.keys().next().value!);
    return total;
  },
  totalQuery(request: CountRequest) {
    const { entity, db } = request;
    const d = entity.descriptor;
    if (!request.filtered) return counterThenExact.totalQuery!(request);
    const filters = request.filters ?? [];
    if (request.search !== undefined || filters.length !== 1 || !d.counts.groupBy.includes(filters[0]!.column)) {
      return exactCount.totalQuery!(request);
    }
    const applied = filters[0]!;
    const counters = db
      .selectFrom(GROUP_COUNTS_TABLE)
      .select(sql<string>`coalesce(sum(row_count), 0)`.as('total'))
      .where('table_name', '=', d.table)
      .where('column_name', '=', applied.column);
    if (!applied.relation) {
      if (applied.filter.operator !== 'eq') return exactCount.totalQuery!(request);
      return counters.where('value', '=', String(applied.value));
    }
    const { target, field } = applied.relation;
    const operator = OPERATORS[applied.filter.operator];
    const value = applied.filter.operator === 'ilike' ? containsPattern(String(applied.value)) : applied.value;
    const matching = db.selectFrom(target.descriptor.table).select(sql<string>`id::text`.as('id')).where(field, operator, value);
    // `= any(array(...))` runs the related lookup once and seeks the counters' primary key with it.
    return counters.where(sql<boolean>`value = any(array(${matching}))`);
  },
};
