import type { SelectQueryBuilder } from 'kysely';
import type { LoadedEntity, SortDirection } from '../../../shared/descriptor/types.js';
import type { OperationContext, selectionOf } from '../context.js';
import type { ListQuery } from '../list-query.js';

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
 * Needs the exact `total` of the filtered rows (the count strategy's); ties are broken by id.
 */
export function planPage(
  entity: LoadedEntity,
  filtered: SelectQueryBuilder<any, any, any>,
  selection: ReturnType<typeof selectionOf>,
  parsed: Pick<ListQuery, 'page' | 'perPage' | 'sort' | 'direction'>,
  total: number,
  ctx: OperationContext,
): PagePlan {
  const offset = (parsed.page - 1) * parsed.perPage;
  const reversed = offset > 0 && offset + parsed.perPage / 2 > total / 2;
  const direction = reversed ? flip(parsed.direction) : parsed.direction;
  const limit = reversed ? Math.max(0, Math.min(parsed.perPage, total - offset)) : parsed.perPage;
  const skip = reversed ? Math.max(0, total - offset - limit) : offset;
  const ordered = <Q extends SelectQueryBuilder<any, any, any>>(query: Q) =>
    query.orderBy(parsed.sort, direction).$if(parsed.sort !== 'id', (q) => q.orderBy('id', direction)) as Q;
  const pageIds = ordered(filtered.select('id')).limit(limit).offset(skip);
  const query = ordered(ctx.db.selectFrom(entity.descriptor.table).select(selection).where('id', 'in', pageIds));
  return { query, reversed, direction };
}
