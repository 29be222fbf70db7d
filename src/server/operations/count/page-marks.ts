import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { LoadedEntity, SortDirection } from '../../../shared/descriptor/types.js';
import { type DataVersionSnapshot, readDataVersion, versionSum } from '../list-cache.js';
import type { AppliedFilter } from '../list-query.js';

/**
 * Page marks: every {@link MARK_EVERY}th row's sort key of a filtered, sorted list, read once per
 * version of the table's data, so that page N starts from the nearest mark (a keyset seek on the
 * `(sort, id)` index) instead of walking N pages of index entries from the start.
 *
 * A list sorted by `created_at` over 1,000,000 rows keeps 10,000 marks; page 1,000 of 15 rows then
 * reads at most 115 index entries instead of 15,000. The marks are only used while the table's data
 * version (raised by a trigger on every write, `list-cache.ts`) is the one they were read at, and
 * while the total they were read with is the list's total, so a page is always the one an offset
 * scan would give. After a write they are read again (at most every {@link REBUILD_AFTER_MS}): for a
 * large list in the background, one list at a time, pages being read by offset until then; for a
 * small list ({@link SMALL_LIST}) while its request waits, two lists at a time.
 *
 * A list filtered through a relation (`q[agency_name]`: contests of the customers whose company
 * matches) gets marks too, kept per filter value and read again when either table changes; its
 * seek also names the mark two further on, so the page is read from the rows between two marks
 * (at most 2 × MARK_EVERY) instead of every matching row before it. When such a list is small, its
 * whole order is read instead (every row's id, {@link Marks.order}: cheaper to read than the marks),
 * and any page of it after the first, the early ones too once it is there, is read by its rows' ids.
 */
export const MARK_EVERY = 100;

/** Lists with fewer rows than this never get marks (an offset walk is cheap there). */
const MIN_ROWS = 2_000;
const REBUILD_AFTER_MS = 5_000;
const MAX_LISTS = 512;
/**
 * Lists up to this many rows are small: their marks are read alongside others (at most
 * {@link MAX_SMALL_BUILDS} at once) and their requests wait for them. A larger list's marks are
 * read one list at a time (a million rows: about a second of the database's time), in the background.
 */
const SMALL_LIST = 200_000;
const MAX_SMALL_BUILDS = 2;
/**
 * Most ids kept in list orders (see {@link Marks.order}) across all lists of a server: 4 bytes
 * each, so 16 MB; the orders of the least recently read lists are let go first (their marks stay).
 */
const MAX_ORDERED_IDS = 4_000_000;

interface Marks {
  version: string;
  total: number;
  /** Rows whose sort value is NULL (last in ascending order, first in descending). */
  nulls: number;
  /**
   * Sort value (as text: a timestamp keeps its microseconds; PostgreSQL reads it back as the
   * column's type) and id of the rows at ascending positions MARK_EVERY-1, 2·MARK_EVERY-1, ...
   */
  values: unknown[];
  ids: Array<number | string>;
  /**
   * Every row's id in ascending order (position `i` holds the row at ascending position `i`), for a
   * small list filtered through a relation: its page is then read by those 15 ids, where a seek from
   * a mark looks into every related row's index (500 customers: 500 index descents a page, which
   * made those pages most of the database's work on the PostgreSQL spread). Kept only while its ids
   * are 32-bit integers and {@link MAX_ORDERED_IDS} allows.
   */
  order?: Int32Array;
}

interface Slot {
  marks?: Marks;
  /** Its order was let go for others (the ids' budget): the list is read as marks from then on. */
  marksOnly?: boolean;
  building?: Promise<void>;
  builtAt: number;
}

/** Where a page starts: after the row (`value`, `id`) in the page's order, skipping `skip` rows. */
export interface PageSeek {
  value: unknown;
  id: number | string;
  /** True when the mark's sort value is NULL: the page is then inside the NULL block. */
  isNull: boolean;
  skip: number;
  /**
   * A later mark (two on, in the page's order) the whole page lies before or at, when it exists
   * and is not NULL: `(sort, id) <= bound` ascending, `(sort, id) > bound` descending.
   */
  bound?: { value: unknown; id: number | string };
  /** The page's ids in the page's order, when the list's order is kept ({@link Marks.order}): the other fields are then unused. */
  pageIds?: number[];
}

/** The request a seek is asked for. */
export interface SeekRequest {
  entity: LoadedEntity;
  filtered: SelectQueryBuilder<any, any, any>;
  filters: readonly AppliedFilter[];
  search?: string;
  sort: string;
  direction: SortDirection;
  offset: number;
  limit: number;
  total: number;
  /** The request's data versions (list-cache.ts). */
  versions?: DataVersionSnapshot;
}

class PageMarks {
  readonly #lists = new Map<string, Slot>();
  /** Whether the marks of a large list are being read (one at a time). */
  #buildingLarge = false;
  /** How many small lists' marks are being read. */
  #buildingSmall = 0;
  readonly #pending = new Set<Promise<void>>();
  /** Pages answered from marks since start (read by tests to know the marks were used; see {@link served}). */
  seeks = 0;
  /** Of those, pages answered from a kept list order (read by tests). */
  orderedSeeks = 0;
  /** Ids held in list orders, all lists together. */
  #orderedIds = 0;
  /** Most ids held in list orders (tests lower it to see orders let go). */
  maxOrderedIds = MAX_ORDERED_IDS;

  constructor(readonly db: Kysely<any>) {}

  /**
   * The seek of one page when the list's marks are current, else undefined (the caller reads by
   * offset) after starting, when due, a background read of the marks.
   */
  async seek(request: SeekRequest): Promise<PageSeek | undefined> {
    const { entity, filters, search, sort, offset, total } = request;
    // A small list filtered through a relation keeps its order, which serves its early pages too
    // once it is there (an early page does not wait for it, nor start its read).
    const ordered = total <= SMALL_LIST && filters.some((f) => f.relation);
    const early = offset < MARK_EVERY;
    if ((early && !ordered) || total < MIN_ROWS || search !== undefined || sort === 'id') return undefined;
    if (Object.hasOwn(entity.descriptor.computed, sort)) return undefined;
    // Marks fit lists whose filters are comparisons on the table's own columns or through one relation.
    if (filters.some((applied) => !applied.relation && applied.filter.operator === 'ilike')) return undefined;
    const table = entity.descriptor.table;
    const key = JSON.stringify([table, sort, filters.map((f) => [f.column, f.relation?.field ?? null, f.filter.operator, f.value])]);
    const related = filters.flatMap((f) => (f.relation ? [f.relation.target.descriptor.table] : []));
    const version = await readDataVersion(this.db, [table, ...new Set(related)], request.versions);
    let slot = this.#lists.get(key);
    if (!slot) {
      slot = { builtAt: 0 };
      this.#lists.set(key, slot);
      if (this.#lists.size > MAX_LISTS) {
        const oldest = this.#lists.keys().next().value!;
        this.#keepOrder(this.#lists.get(oldest)!, undefined);
        this.#lists.delete(oldest);
      }
    } else {
      // Least recently read last: the order let go first is the one read longest ago.
      this.#lists.delete(key);
      this.#lists.set(key, slot);
    }
    const current = () => {
      const marks = slot.marks;
      if (!marks || marks.version !== version || marks.total !== total) return undefined;
      return seekIn(marks, request);
    };
    if (slot.marks?.version === version && slot.marks.total === total) return current();
    if (early) return undefined;
    // Marks newer than the request's (presumed) version: the request is about to be run again with
    // the versions read (list-cache.ts), and reading the marks again now would read the same ones.
    if (slot.marks && request.versions?.presumed && BigInt(slot.marks.version) > BigInt(version)) return undefined;
    const small = total <= SMALL_LIST;
    const free = small ? this.#buildingSmall < MAX_SMALL_BUILDS : !this.#buildingLarge;
    if (!slot.building && free && (slot.builtAt === 0 || Date.now() - slot.builtAt >= REBUILD_AFTER_MS)) {
      if (small) this.#buildingSmall++;
      else this.#buildingLarge = true;
      slot.builtAt = Date.now();
      const target = slot;
      const building = this.#read(request, [table, ...new Set(related)], version, ordered && !slot.marksOnly)
        .then((read) => {
          const { order, ...marks } = read;
          this.#keepOrder(target, undefined);
          target.marks = marks;
          // A list forgotten meanwhile (MAX_LISTS) holds no order: only listed ones are counted.
          if (this.#lists.get(key) === target) this.#keepOrder(target, order);
        })
        .catch(() => undefined)
        .finally(() => {
          target.building = undefined;
          if (small) this.#buildingSmall--;
          else this.#buildingLarge = false;
          this.#pending.delete(building);
        });
      target.building = building;
      this.#pending.add(building);
    }
    // A small list's marks take about as long to read as one deep page by offset: its requests wait
    // for them rather than each walking the offset meanwhile (which, on a busy server, is what makes
    // the slowest answers slow).
    if (small && slot.building) {
      await slot.building;
      return current();
    }
    return undefined;
  }

  /**
   * Counts a page read from `seek` (its statement ran and its data versions were confirmed: a seek
   * planned with presumed versions that turned out stale is not counted).
   */
  served(seek: PageSeek): void {
    this.seeks++;
    if (seek.pageIds) this.orderedSeeks++;
  }

  /** Settles when no marks are being read (tests wait on it before asking for a page again). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Gives `slot`'s marks the list order `order` (or none), within {@link maxOrderedIds} for all lists. */
  #keepOrder(slot: Slot, order: Int32Array | undefined) {
    if (slot.marks?.order) {
      this.#orderedIds -= slot.marks.order.length;
      slot.marks.order = undefined;
    }
    if (!order || !slot.marks || order.length > this.maxOrderedIds) return;
    for (const other of this.#lists.values()) {
      if (this.#orderedIds + order.length <= this.maxOrderedIds) break;
      if (other !== slot && other.marks?.order) {
        this.#orderedIds -= other.marks.order.length;
        // An order read instead of marks leaves nothing to seek from: that list is read again when next asked.
        if (other.marks.values.length === 0) {
          other.marks = undefined;
          other.builtAt = 0;
          other.marksOnly = true;
        } else other.marks.order = undefined;
      }
    }
    slot.marks.order = order;
    this.#orderedIds += order.length;
  }

  /**
   * Reads the marks of a list in one pass over its `(filter, sort, id)` index: every
   * MARK_EVERY-th row, plus the last row (its number is the total) and the last row with a sort
   * value (its number is the count of non-NULL values, NULLs sorting last), found by looking one
   * row ahead, so the counts come from the same pass and snapshot as the marks. Only the kept rows'
   * values are turned into text (every row's: 1.7 s instead of 0.7 s for 1,000,000 timestamps).
   * With `withOrder`, the list's order is read instead (every row's id in order, as one text: {@link
   * Marks.order}), unless an id is not a 32-bit integer.
   */
  async #read(request: SeekRequest, tables: readonly string[], asked: string, withOrder: boolean): Promise<Marks> {
    const { filtered, sort } = request;
    // The marks carry the version of the snapshot they were read in (asked for in the same
    // statement): the request's may be presumed (list-cache.ts) and already old.
    const versionNow = versionSum(tables);
    if (withOrder) {
      // The order alone (no window over the rows, no text of their sort values): cheaper than the marks.
      const result = await filtered
        .clearSelect()
        .select([sql<string | null>`string_agg(id::text, ',' order by ${sql.ref(sort)} asc, id asc)`.as('ids'), versionNow.as('version')])
        .execute();
      const version = String(result[0]?.version ?? asked);
      const order = orderOf(result[0]?.ids) ?? (result[0]?.ids ? undefined : new Int32Array(0));
      if (order) return { version, total: order.length, nulls: 0, values: [], ids: [], order };
    }
    const window = sql`(order by ${sql.ref(sort)} asc, id asc)`;
    const ordered = filtered
      .clearSelect()
      .select([
        sql<unknown>`${sql.ref(sort)}`.as('v'),
        'id',
        sql<number>`row_number() over ${window}`.as('n'),
        sql<boolean>`lead(id) over ${window} is null`.as('last'),
        sql<boolean>`${sql.ref(sort)} is not null and (lead(${sql.ref(sort)}) over ${window}) is null`.as('last_value'),
      ]);
    const result = await sql<{ v: unknown; id: number | string; n: string | number; last: boolean; last_value: boolean; version: string }>`
      select v::text as v, id, n, last, last_value, ${versionNow} as version from (${ordered}) numbered where n % ${MARK_EVERY} = 0 or last or last_value order by n`.execute(
      this.db,
    );
    const rows = result.rows;
    const version = rows.length > 0 ? String(rows[0]!.version) : asked;
    const total = rows.length > 0 ? Number(rows[rows.length - 1]!.n) : 0;
    const nonNull = rows.findLast((row) => row.last_value);
    const nulls = total - (nonNull ? Number(nonNull.n) : 0);
    const marked = rows.filter((row) => Number(row.n) % MARK_EVERY === 0);
    return { version, total, nulls, values: marked.map((row) => row.v), ids: marked.map((row) => row.id) };
  }
}

/** The ids of a list order's text (`1,5,3`), or undefined when one is not a 32-bit integer. */
function orderOf(text: string | null | undefined): Int32Array | undefined {
  if (!text) return undefined;
  const parts = text.split(',');
  const order = new Int32Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const id = Number(parts[i]);
    if (!Number.isInteger(id) || id > 0x7fffffff || id < -0x80000000) return undefined;
    order[i] = id;
  }
  return order;
}

/** The seek of the page at `offset` in `direction` from the marks, or undefined when none fits. */
function seekIn(marks: Marks, request: SeekRequest): PageSeek | undefined {
  const { offset, limit, direction } = request;
  const { total, nulls } = marks;
  if (marks.order) {
    // Ascending position i is order[i]; descending, the page's first row is at total - 1 - offset.
    const pageIds: number[] = [];
    for (let k = 0; k < limit && offset + k < total; k++) pageIds.push(marks.order[direction === 'asc' ? offset + k : total - 1 - offset - k]!);
    return pageIds.length > 0 ? { value: null, id: 0, isNull: false, skip: 0, pageIds } : undefined;
  }
  const nonNull = total - nulls;
  if (direction === 'asc') {
    // The last mark strictly before the page's first row (ascending position `offset`).
    const j = Math.floor(offset / MARK_EVERY) - 1;
    if (j < 0 || j >= marks.values.length) return undefined;
    const position = (j + 1) * MARK_EVERY - 1;
    const value = marks.values[j];
    const isNull = value === null || value === undefined;
    // After a non-NULL mark the keyset reaches the non-NULL rows only: the page must end before the NULLs.
    if (!isNull && offset + limit > nonNull) return undefined;
    return { value, id: marks.ids[j]!, isNull, skip: offset - position - 1, ...boundAt(marks, j + 2, limit) };
  }
  // Descending: the page's first row is at ascending position p; the mark is the first one after it.
  const p = total - 1 - offset;
  const j = Math.ceil((p + 2) / MARK_EVERY) - 1;
  if (j < 0 || j >= marks.values.length) return undefined;
  const position = (j + 1) * MARK_EVERY - 1;
  const value = marks.values[j];
  const isNull = value === null || value === undefined;
  // After a NULL mark the keyset reaches the NULL block only: the page must end inside it.
  if (isNull && p - limit + 1 < nonNull) return undefined;
  return { value, id: marks.ids[j]!, isNull, skip: position - 1 - p, ...boundAt(marks, j - 2, limit) };
}

/**
 * The bound of a seek from mark `j`: mark `k` = j ± 2. The page starts fewer than MARK_EVERY rows
 * after mark j and holds `limit` rows, so with `limit` ≤ MARK_EVERY it ends before mark k (exclusive
 * of rows past it). None when k is outside the marks or its sort value is NULL.
 */
function boundAt(marks: Marks, k: number, limit: number): Pick<PageSeek, 'bound'> {
  if (limit > MARK_EVERY || k < 0 || k >= marks.values.length) return {};
  const value = marks.values[k];
  if (value === null || value === undefined) return {};
  return { bound: { value, id: marks.ids[k]! } };
}

const byDatabase = new WeakMap<Kysely<any>, PageMarks>();

/** The page marks of one database (one set per server process). */
export function pageMarks(db: Kysely<any>): PageMarks {
  let marks = byDatabase.get(db);
  if (!marks) {
    marks = new PageMarks(db);
    byDatabase.set(db, marks);
  }
  return marks;
}

/** `filtered` narrowed to the rows after the seek's mark in the page's order. */
export function afterMark<Q extends SelectQueryBuilder<any, any, any>>(query: Q, sort: string, direction: SortDirection, seek: PageSeek): Q {
  const after = direction === 'asc' ? sql.raw('>') : sql.raw('<');
  if (seek.isNull) return query.where(sql.ref(sort), 'is', null).where(sql<boolean>`id ${after} ${seek.id}`) as Q;
  return query.where(sql<boolean>`(${sql.ref(sort)}, id) ${after} (${seek.value}, ${seek.id})`) as Q;
}
