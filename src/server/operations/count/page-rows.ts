import { type SelectQueryBuilder, sql } from 'kysely';
import type { LoadedEntity, SortDirection } from '../../../shared/descriptor/types.js';
import { containsPattern } from '../../../shared/sql-text.js';
import type { OperationContext, selectionOf } from '../context.js';
import type { ListQuery } from '../list-query.js';
import { compoundParts } from './group-counts.js';
import { afterMark, type PageSeek } from './page-marks.js';

/** The rows query of one page and whether its rows come back in reverse order. */
export interface PagePlan {
  query: SelectQueryBuilder<any, any, any>;
  reversed: boolean;
  /** The direction the rows come back in (the requested one, flipped when `reversed`). */
  direction: SortDirection;
}

const flip = (direction: SortDirection): SortDirection => (direction === 'asc' ? 'desc' : 'asc');

/**
 * Plans the query of one page so that its cost does not grow with the table:
 * - a page past the middle is read in the opposite order with the small offset from the end
 *   (the last page of a million rows costs what the first does), then reversed;
 * - the offset is walked over ids only (`where id in (select id ... order by ... limit/offset)`),
 *   which the `(filter, sort, id)` and `(sort, id)` indexes answer by an index-only scan, and
 *   only the page's rows are read from the table (a deferred join).
 * - with a `seek` from the list's page marks, the page starts at the nearest mark instead.
 * Needs the exact `total` of the filtered rows (the count strategy's); ties are broken by id.
 * The page size is written into the statement and a zero offset left out, so that a page-1 shape
 * is one statement text whatever its values (prepared once: db/prepared-statements.ts); a page
 * size is a validated integer of at most 100.
 */
export function planPage(
  entity: LoadedEntity,
  filtered: SelectQueryBuilder<any, any, any>,
  selection: ReturnType<typeof selectionOf>,
  parsed: Pick<ListQuery, 'page' | 'perPage' | 'sort' | 'direction'> & Partial<Pick<ListQuery, 'filters' | 'search'>>,
  total: number,
  ctx: OperationContext,
  seek?: PageSeek,
): PagePlan {
  const offset = (parsed.page - 1) * parsed.perPage;
  if (seek) {
    // From the nearest page mark (page-marks.ts): a keyset seek, then fewer than MARK_EVERY rows skipped.
    const ordered = <Q extends SelectQueryBuilder<any, any, any>>(query: Q) =>
      query.orderBy(parsed.sort, parsed.direction).orderBy('id', parsed.direction) as Q;
    // The list's order is kept: the page is its rows by id.
    if (seek.pageIds) {
      return {
        query: ordered(ctx.db.selectFrom(entity.descriptor.table).select(selection).where('id', 'in', seek.pageIds)),
        reversed: false,
        direction: parsed.direction,
      };
    }
    const betweenMarks = relationPageIds(entity, parsed, parsed.direction, parsed.perPage, seek.skip, ctx, seek);
    if (betweenMarks) {
      return {
        query: ordered(ctx.db.selectFrom(entity.descriptor.table).select(selection).where(sql<boolean>`id in (${betweenMarks})`)),
        reversed: false,
        direction: parsed.direction,
      };
    }
    // A list filtered through a relation whose seek has no bound (its last marks, or NULL sort
    // values) is read by the merge below, from whichever end is nearer, rather than by walking the
    // sort index from the mark and testing each row against the related rows.
    if (!relationPageIds(entity, parsed, parsed.direction, parsed.perPage, 0, ctx)) {
      const pageIds = ordered(afterMark(filtered.select('id'), parsed.sort, parsed.direction, seek))
        .limit(sql.lit(parsed.perPage))
        .$if(seek.skip > 0, (q) => q.offset(seek.skip));
      const query = ordered(ctx.db.selectFrom(entity.descriptor.table).select(selection).where('id', 'in', pageIds));
      return { query, reversed: false, direction: parsed.direction };
    }
  }
  const reversed = offset > 0 && offset + parsed.perPage / 2 > total / 2;
  const direction = reversed ? flip(parsed.direction) : parsed.direction;
  const limit = reversed ? Math.max(0, Math.min(parsed.perPage, total - offset)) : parsed.perPage;
  const skip = reversed ? Math.max(0, total - offset - limit) : offset;
  const ordered = <Q extends SelectQueryBuilder<any, any, any>>(query: Q) =>
    query.orderBy(parsed.sort, direction).$if(parsed.sort !== 'id', (q) => q.orderBy('id', direction)) as Q;
  const throughRelation = relationPageIds(entity, parsed, direction, limit, skip, ctx);
  if (throughRelation) {
    const query = ordered(ctx.db.selectFrom(entity.descriptor.table).select(selection).where(sql<boolean>`id in (${throughRelation})`));
    return { query, reversed, direction };
  }
  const pageIds = ordered(filtered.select('id'))
    .limit(sql.lit(limit))
    .$if(skip > 0, (q) => q.offset(skip));
  const query = ordered(ctx.db.selectFrom(entity.descriptor.table).select(selection).where('id', 'in', pageIds));
  return { query, reversed, direction };
}

const OPERATORS = { eq: '=', ilike: 'ilike', gte: '>=', lte: '<=' } as const;

/**
 * The ids of a page filtered through a relation (`q[agency_name]`: the customers whose company
 * matches), alone or beside exact matches on the table's own fields (the current edition), when
 * the foreign key with those fields is one counted entry (`counts.groupBy`, so its
 * `(fields..., sort, id)` indexes exist): each matching related row's first `skip + limit` rows are read from its index, in
 * order, and only those are merged. Without this the planner may walk the whole sort index and
 * test every row against the related rows (slow on a large table when the matches sit late).
 * With a `seek` that has a bound (page marks of this filter value), each related row reads only
 * its rows between the two marks, fewer than 2 × MARK_EVERY in all, whatever the page's depth.
 */
function relationPageIds(
  entity: LoadedEntity,
  parsed: Pick<ListQuery, 'sort'> & Partial<Pick<ListQuery, 'filters' | 'search'>>,
  direction: SortDirection,
  limit: number,
  skip: number,
  ctx: OperationContext,
  seek?: PageSeek,
) {
  const filters = parsed.filters ?? [];
  const through = filters.filter((f) => f.relation);
  const applied = through[0];
  const others = filters.filter((f) => !f.relation);
  const d = entity.descriptor;
  // One filter through a relation, and beside it only exact matches on the table's own fields (the edition's scope).
  if (through.length !== 1 || !applied?.relation || parsed.search !== undefined) return undefined;
  if (others.some((f) => f.filter.operator !== 'eq' || f.column === applied.column)) return undefined;
  // The foreign key, with the other filtered fields, must be one counted entry: its indexes are what this reads.
  const columns = [applied.column, ...others.map((f) => f.column)];
  const counted = d.counts.groupBy.some((entry) => {
    const parts = compoundParts(entry);
    return parts.length === columns.length && columns.every((column) => parts.includes(column));
  });
  if (!counted || parsed.sort === 'id' || Object.hasOwn(d.computed, parsed.sort)) return undefined;
  if (!Object.hasOwn(entity.schema.properties ?? {}, parsed.sort)) return undefined;
  if (seek && (seek.isNull || !seek.bound)) return undefined;
  const operator = OPERATORS[applied.filter.operator];
  const value = applied.filter.operator === 'ilike' ? containsPattern(String(applied.value)) : applied.value;
  const matching = ctx.db.selectFrom(applied.relation.target.descriptor.table).select('id').where(applied.relation.field, operator, value);
  const order = sql.raw(direction);
  const sort = sql.ref(parsed.sort);
  // With a combination counted (`edition_id+customer_id`), its `(edition_id, customer_id, sort, id)`
  // index answers each related row's part in order, index-only.
  const also = sql.join(
    others.map((f) => sql` and ${sql.ref(f.column)} = ${f.value}`),
    sql``,
  );
  let between = sql``;
  if (seek?.bound) {
    const [after, upTo] = direction === 'asc' ? [sql.raw('>'), sql.raw('<=')] : [sql.raw('<'), sql.raw('>')];
    between = sql` and (${sort}, id) ${after} (${seek.value}, ${seek.id}) and (${sort}, id) ${upTo} (${seek.bound.value}, ${seek.bound.id})`;
  }
  return sql`select x.id from (${matching}) as c (related_id) cross join lateral (
      select id, ${sort} as sort_value from ${sql.table(d.table)} where ${sql.ref(applied.column)} = c.related_id${also}${between}
      order by ${sort} ${order}, id ${order} limit ${skip + limit}
    ) as x order by x.sort_value ${order}, x.id ${order} limit ${limit} offset ${skip}`;
}
