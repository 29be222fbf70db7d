import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkSeed } from '../../src/features/demo/server/bulk-seed.js';
import { MARK_EVERY, pageMarks } from '../../src/server/operations/count/page-marks.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const SORTS = ['created_at', 'updated_at', 'status', 'campaign_id'];
const PER_PAGE = 15;

/**
 * Pages read from page marks (count/page-marks.ts) are the pages an offset query gives: with no
 * filter, a filter on the table's own column, and a filter through a relation (`q[agency_name]`,
 * whose pages are read between two marks), for every sort, both directions, at several depths.
 * A small list's first deep request waits for its marks and is answered from them; the other pages
 * must come from the marks too (the seek counter rises) and equal the offset query's rows.
 */
describe.each(testDatabaseKinds())('page marks on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let agency = '';
  /** The admin's current edition (the newest not archived): every contest list is scoped to it. */
  let edition = 0;

  beforeAll(async () => {
    t = await startTestApp(kind, { DEMO_DATA: 'true', LIST_CACHE_MB: '0' });
    await bulkSeed(t.app.db, t.app.entities, { contests: 6000, customers: 400, campaigns: 10, batchSize: 2000 });
    await sql`analyze`.execute(t.app.db);
    // A company word matched by the customers of 35-85 % of the contests: enough rows for marks.
    const words = await sql<{ word: string; n: number }>`select lower(w) as word, count(distinct c.id) as n
      from contests c join customers u on u.id = c.customer_id cross join lateral regexp_split_to_table(u.company, ' ') w
      where length(w) >= 4 group by 1 order by 2 desc`.execute(t.app.db);
    const contests = Number((await sql<{ n: number }>`select count(*) as n from contests`.execute(t.app.db)).rows[0]!.n);
    agency = words.rows.find((row) => Number(row.n) >= contests * 0.35 && Number(row.n) <= contests * 0.85)?.word ?? '';
    edition = Number(
      (await sql<{ id: number }>`select id from editions where status <> 'archived' order by year desc, id desc limit 1`.execute(t.app.db)).rows[0]!.id,
    );
    client = await new TestClient(t.app).init();
    await client.signIn();
  }, 180_000);
  afterAll(async () => t?.close());

  const offsetIds = async (where: ReturnType<typeof sql>, sort: string, direction: 'asc' | 'desc', page: number) => {
    const dir = sql.raw(direction);
    const rows = await sql<{ id: number }>`select id from contests where edition_id = ${edition} and ${where}
      order by ${sql.ref(sort)} ${dir}, id ${dir} limit ${PER_PAGE} offset ${(page - 1) * PER_PAGE}`.execute(t.app.db);
    return rows.rows.map((row) => Number(row.id));
  };

  it('answers deep pages from the marks with the rows an offset query gives, filtered through a relation too', async () => {
    expect(agency, 'a company word shared by many customers').not.toBe('');
    const marks = pageMarks(t.app.db);
    for (const [filter, where] of [
      ['', sql`true`],
      ['status=approved&', sql`status = 'approved'`],
      [`q[agency_name]=${agency}&`, sql`customer_id in (select id from customers where company ilike ${`%${agency}%`})`],
    ] as const) {
      const total = Number(
        (await sql<{ n: number }>`select count(*) as n from contests where edition_id = ${edition} and ${where}`.execute(t.app.db)).rows[0]!.n,
      );
      const lastPage = Math.ceil(total / PER_PAGE);
      const seeksBefore = marks.seeks;
      for (const sort of SORTS) {
        for (const direction of ['asc', 'desc'] as const) {
          // Some depths, and pages that run across a mark (in either direction) in the middle.
          const across = Array.from({ length: lastPage }, (_, i) => i + 1).filter(
            (p) => ((p - 1) * PER_PAGE) % MARK_EVERY > MARK_EVERY - PER_PAGE || (total - p * PER_PAGE) % MARK_EVERY > MARK_EVERY - PER_PAGE,
          );
          const pages = [
            ...new Set([Math.ceil(lastPage / 3), Math.ceil(lastPage / 2), lastPage - 40, lastPage - 1, ...across.slice(2, 4), ...across.slice(-4, -2)]),
          ].filter((p) => p > 40 && p < lastPage);
          const url = (page: number) => `/api/contests?${filter}sort=${sort}&direction=${direction}&page=${page}&per_page=${PER_PAGE}`;
          // The first deep request starts the read of this list's marks; a small list's request
          // (all of these: fewer than 200,000 rows) waits for them and is answered from them.
          const first = marks.seeks;
          const answer = await client.get(url(pages[0]!));
          expect(answer.status).toBe(200);
          expect(answer.body.data.map((row: { id: number }) => row.id)).toEqual(await offsetIds(where, sort, direction, pages[0]!));
          // (campaign_id can be NULL: a page reaching into the NULL block is read by offset.)
          if (sort !== 'campaign_id') expect(marks.seeks, `${filter}${sort} ${direction}: the first deep page from the marks`).toBe(first + 1);
          await marks.idle();
          for (const page of pages) {
            const res = await client.get(url(page));
            expect(res.status).toBe(200);
            expect(res.body.meta.total).toBe(total);
            expect(
              res.body.data.map((row: { id: number }) => row.id),
              `${filter}${sort} ${direction} page ${page} of ${lastPage}`,
            ).toEqual(await offsetIds(where, sort, direction, page));
          }
        }
      }
      expect(marks.seeks - seeksBefore, `pages answered from marks, ${filter || 'no filter'}`).toBeGreaterThan(SORTS.length * 2);
    }
  }, 300_000);

  it('keeps the whole order of a small list filtered through a relation, and answers its early pages from it', async () => {
    const marks = pageMarks(t.app.db);
    const where = sql`customer_id in (select id from customers where company ilike ${`%${agency}%`})`;
    for (const sort of SORTS) {
      for (const direction of ['asc', 'desc'] as const) {
        // Read by the previous test (its marks and order kept since): a deep page, then early ones.
        for (const page of [40, 2, 9, 34]) {
          const before = marks.orderedSeeks;
          const res = await client.get(`/api/contests?q[agency_name]=${agency}&sort=${sort}&direction=${direction}&page=${page}&per_page=${PER_PAGE}`);
          expect(res.status).toBe(200);
          expect(
            res.body.data.map((row: { id: number }) => row.id),
            `${sort} ${direction} page ${page}`,
          ).toEqual(await offsetIds(where, sort, direction, page));
          expect(marks.orderedSeeks, `${sort} ${direction} page ${page} read by its ids`).toBe(before + 1);
        }
      }
    }
    // A write moves a row to the end (the data version rises): page 2 is read again, and is the offset query's.
    const moved = (
      await sql<{ id: number }>`select id from contests where edition_id = ${edition} and ${where} order by created_at, id limit 1`.execute(t.app.db)
    ).rows[0]!.id;
    await sql`update contests set created_at = now() where id = ${moved}`.execute(t.app.db);
    for (const page of [2, 40, 2]) {
      const after = await client.get(`/api/contests?q[agency_name]=${agency}&sort=created_at&direction=asc&page=${page}&per_page=${PER_PAGE}`);
      expect(after.body.data.map((row: { id: number }) => row.id)).toEqual(await offsetIds(where, 'created_at', 'asc', page));
    }
  }, 120_000);

  it('lets the least recently read order go when the ids would pass their budget, and reads that list as marks from then on', async () => {
    const marks = pageMarks(t.app.db);
    const where = sql`customer_id in (select id from customers where company ilike ${`%${agency}%`})`;
    const total = Number(
      (await sql<{ n: number }>`select count(*) as n from contests where edition_id = ${edition} and ${where}`.execute(t.app.db)).rows[0]!.n,
    );
    const url = (sort: string, page: number) => `/api/contests?q[agency_name]=${agency}&sort=${sort}&direction=asc&page=${page}&per_page=${PER_PAGE}`;
    const pageOf = async (sort: string, page: number) => (await client.get(url(sort, page))).body.data.map((row: { id: number }) => row.id);
    // A write makes every order of this list stale; then room for one order only.
    await sql`update contests set updated_at = now() where id = (select min(id) from contests where edition_id = ${edition} and ${where})`.execute(t.app.db);
    marks.maxOrderedIds = total + 10;
    // A list's marks are read again at most every 5 s (REBUILD_AFTER_MS): the last test's were just read.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    try {
      // created_at's order is read again and kept; the other sorts' (stale) orders are let go for it.
      const before = marks.orderedSeeks;
      expect(await pageOf('created_at', 40)).toEqual(await offsetIds(where, 'created_at', 'asc', 40));
      expect(marks.orderedSeeks, 'created_at read by its order').toBe(before + 1);
      // status is read again as marks: its deep page from a mark, its early page by offset.
      const seeks = marks.seeks;
      expect(await pageOf('status', 40)).toEqual(await offsetIds(where, 'status', 'asc', 40));
      expect(await pageOf('status', 2)).toEqual(await offsetIds(where, 'status', 'asc', 2));
      expect(marks.seeks, 'status page 40 from a mark').toBe(seeks + 1);
      expect(marks.orderedSeeks, 'status no longer read by an order').toBe(before + 1);
      // created_at keeps its order.
      expect(await pageOf('created_at', 2)).toEqual(await offsetIds(where, 'created_at', 'asc', 2));
      expect(marks.orderedSeeks).toBe(before + 2);
    } finally {
      marks.maxOrderedIds = 4_000_000;
    }
  }, 120_000);
});
