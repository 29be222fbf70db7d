import { sql } from 'kysely';
import { containsPattern } from '../../../shared/sql-text.js';
import type { CountRequest, CountStrategy } from '../count.js';
import { counterThenExact, exactCount } from '../count.js';
import type { AppliedFilter } from '../list-query.js';

/** The table of per-value row counts kept by triggers for `counts.groupBy` fields (see `db/sync/counters.ts`). */
export const GROUP_COUNTS_TABLE = 'entity_group_counts';

const OPERATORS = { eq: '=', ilike: 'ilike', gte: '>=', lte: '<=' } as const;

/** What joins the parts of a compound counter's value (`edition_id+status` → `1␟approved`): the ASCII unit separator. */
export const COMPOUND_SEPARATOR = '\u001f';

/** The fields of a `counts.groupBy` entry: one, or the parts of a compound `a+b`. */
export function compoundParts(entry: string): string[] {
  return entry.split('+');
}

/**
 * The counted entry whose fields are exactly the filters' columns, and the filters in its order:
 * every filter an exact match on the table's own column, except at most one through a relation
 * whose foreign key is one of the entry's fields. Undefined when no entry fits.
 */
function counterFor(request: CountRequest): { entry: string; ordered: AppliedFilter[] } | undefined {
  const filters = request.filters ?? [];
  if (request.search !== undefined || filters.length === 0) return undefined;
  if (filters.some((applied) => !applied.relation && applied.filter.operator !== 'eq')) return undefined;
  if (filters.filter((applied) => applied.relation).length > 1) return undefined;
  const columns = filters.map((applied) => applied.column);
  if (new Set(columns).size !== columns.length) return undefined;
  for (const entry of request.entity.descriptor.counts.groupBy) {
    const parts = compoundParts(entry);
    if (parts.length !== columns.length || !parts.every((part) => columns.includes(part))) continue;
    return { entry, ordered: parts.map((part) => filters.find((applied) => applied.column === part)!) };
  }
  return undefined;
}

/**
 * Exact totals from the database's counters wherever the descriptor's `counts.groupBy` allows:
 * - no filter: the table's row count;
 * - exact filters on the fields of one entry (`status=approved`; `edition_id=1` and
 *   `status=approved` with an `edition_id+status` entry, as every list scoped to the current
 *   edition is): that value's counter;
 * - one of those filters through a relation whose foreign key is counted (`q[agency_name]` → the
 *   customers whose company matches, through the trigram index; in an edition, with an
 *   `edition_id+customer_id` entry): the sum of those customers' counters;
 * - anything else (search, ranges, filters no entry names): `count(*)` of the filtered query, which
 *   the covering indexes keep index-only where they can.
 * Every figure is exact: the counters change in the same transaction as the rows.
 */
export const groupedCounts: CountStrategy = {
  async count(request: CountRequest) {
    if (!request.filtered) return counterThenExact.count(request);
    return Number((await groupedCounts.totalQuery!(request).executeTakeFirst())?.total ?? 0);
  },
  totalQuery(request: CountRequest) {
    const { entity, db } = request;
    const d = entity.descriptor;
    if (!request.filtered) return counterThenExact.totalQuery!(request);
    const counter = counterFor(request);
    if (!counter) return exactCount.totalQuery!(request);
    const counters = db
      .selectFrom(GROUP_COUNTS_TABLE)
      .select(sql<string>`coalesce(sum(row_count), 0)`.as('total'))
      .where('table_name', '=', d.table)
      .where('column_name', '=', counter.entry);
    const through = counter.ordered.find((applied) => applied.relation);
    if (!through) return counters.where('value', '=', counter.ordered.map((applied) => String(applied.value)).join(COMPOUND_SEPARATOR));
    const { target, field } = through.relation!;
    const operator = OPERATORS[through.filter.operator];
    const value = through.filter.operator === 'ilike' ? containsPattern(String(through.value)) : through.value;
    // Each matching related row's counter value: its id in the relation's place, the other parts as given.
    const parts = counter.ordered.map((applied) => (applied === through ? sql`id::text` : sql`${String(applied.value)}::text`));
    const counterValue = parts.length === 1 ? parts[0]! : sql`concat_ws(chr(31), ${sql.join(parts)})`;
    const matching = db.selectFrom(target.descriptor.table).select(sql<string>`${counterValue}`.as('id')).where(field, operator, value);
    // `= any(array(...))` runs the related lookup once and seeks the counters' primary key with it.
    return counters.where(sql<boolean>`value = any(array(${matching}))`);
  },
};
