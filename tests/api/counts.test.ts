import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkSeed } from '../../src/features/demo/server/bulk-seed.js';
import { loadConfig } from '../../src/server/config.js';
import { knownExtensionNames } from '../../src/server/extensions.js';
import { GROUP_COUNTS_TABLE } from '../../src/server/operations/count/group-counts.js';
import { loadConfiguredEntities, readEntitySources } from '../../src/server/plugins/entities.js';
import { loadEntities } from '../../src/shared/descriptor/load-entities.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const SORTS = ['created_at', 'updated_at', 'status', 'campaign_id'];

describe('the counts descriptor key', () => {
  const withGroupBy = (groupBy: unknown) =>
    readEntitySources(loadConfig({})).map((source) =>
      (source.descriptor as { name: string }).name === 'contest'
        ? { ...source, descriptor: { ...(source.descriptor as object), counts: { groupBy } } }
        : source,
    );

  it('is declared on contests for status, customer_id and edition_id, and per edition for status and customer_id', () => {
    const contest = loadConfiguredEntities(loadConfig({})).find((e) => e.descriptor.name === 'contest')!;
    expect(contest.descriptor.counts.groupBy).toEqual(['status', 'customer_id', 'edition_id', 'edition_id+status', 'edition_id+customer_id']);
  });

  it('refuses a field the schema does not have, or a malformed name, naming the path', () => {
    // Checked with the registered client names, as the server loads them, so only the counts key is wrong.
    const options = { names: knownExtensionNames };
    expect(() => loadEntities(withGroupBy(['no_such_field']), options)).toThrow(/counts\/groupBy\/0/);
    expect(() => loadEntities(withGroupBy(['Status']), options)).toThrow(/counts\/groupBy\/0/);
    // A combination: each part a field, none twice, none free text (its value could hold the separator).
    expect(() => loadEntities(withGroupBy(['status', 'edition_id+nope']), options)).toThrow(/counts\/groupBy\/1.*"nope" is not a field/);
    expect(() => loadEntities(withGroupBy(['edition_id+edition_id']), options)).toThrow(/counts\/groupBy\/0.*names a field twice/);
    expect(() => loadEntities(withGroupBy(['edition_id+strategy']), options)).toThrow(/counts\/groupBy\/0.*"strategy" cannot be part of a combination/);
    expect(() => loadEntities(withGroupBy(['edition_id+status']), options)).not.toThrow();
  });
});

describe.each(testDatabaseKinds())('exact totals from counters on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let db: any;

  beforeAll(async () => {
    // These tests read the count strategy's answer for every request (one edits a counter by hand,
    // which no data version notices): lists are not cached here (list-cache.test.ts covers that).
    t = await startTestApp(kind, { DEMO_DATA: 'true', LIST_CACHE_MB: '0' });
    db = t.app.db;
    await bulkSeed(db, t.app.entities, { contests: 1500, customers: 40, campaigns: 10, batchSize: 700 });
    client = await new TestClient(t.app).init();
    await client.signIn();
  }, 120_000);
  afterAll(async () => t?.close());

  const counterRows = async () =>
    (
      await sql<{ column_name: string; value: string; row_count: number }>`select column_name, value, row_count from ${sql.table(GROUP_COUNTS_TABLE)}
      where table_name = 'contests' and row_count <> 0 order by 1, 2`.execute(db)
    ).rows.map((r) => ({ ...r, row_count: Number(r.row_count) }));
  const actualRows = async () =>
    (
      await sql<{ column_name: string; value: string; row_count: number }>`
      select 'customer_id' as column_name, customer_id::text as value, count(*) as row_count from contests group by 2
      union all select 'edition_id', edition_id::text, count(*) from contests where edition_id is not null group by 2
      union all select 'status', status, count(*) from contests group by 2
      union all select 'edition_id+status', edition_id::text || chr(31) || status, count(*) from contests where edition_id is not null group by 2
      union all select 'edition_id+customer_id', edition_id::text || chr(31) || customer_id::text, count(*) from contests where edition_id is not null group by 2
      order by 1, 2`.execute(db)
    ).rows.map((r) => ({ ...r, row_count: Number(r.row_count) }));
  // The lists show the admin's current edition (the demo's 2026, where the generated contests go too).
  const inEdition = sql`edition_id = (select id from editions where year = 2026)`;
  const countWhere = async (where: ReturnType<typeof sql>) =>
    Number((await sql<{ n: number }>`select count(*) as n from contests c where ${where} and ${inEdition}`.execute(db)).rows[0]!.n);

  it('keeps per-value counters equal to the rows through inserts, updates and deletes', async () => {
    expect(await counterRows()).toEqual(await actualRows());
    await sql`update contests set status = 'rejected' where id % 11 = 0`.execute(db);
    await sql`update contests set customer_id = (select min(id) from customers) where id % 13 = 0`.execute(db);
    await sql`delete from grades where contest_id % 17 = 0`.execute(db);
    await sql`delete from assignments where contest_id % 17 = 0`.execute(db);
    await sql`delete from contests where id % 17 = 0`.execute(db);
    expect(await counterRows()).toEqual(await actualRows());
  });

  it('answers the unfiltered, status, customer and agency-name totals exactly', async () => {
    const all = await client.get('/api/contests?per_page=15&include=customer,category');
    expect(all.body.meta.total).toBe(await countWhere(sql`true`));
    for (const status of ['pending', 'submitted', 'approved', 'rejected']) {
      const res = await client.get(`/api/contests?status=${status}`);
      expect(res.status).toBe(200);
      expect(res.body.meta.total).toBe(await countWhere(sql`status = ${status}`));
    }
    const customer = (await sql<{ id: number }>`select customer_id as id from contests group by 1 order by count(*) desc limit 1`.execute(db)).rows[0]!.id;
    const byCustomer = await client.get(`/api/contests?q[customer_id]=${customer}`);
    expect(byCustomer.body.meta.total).toBe(await countWhere(sql`customer_id = ${customer}`));
    expect((await client.get('/api/contests?q[customer_id]=999999')).body.meta.total).toBe(0);
    for (const agency of ['rimba', 'KANCIL', 'Sdn Bhd', '50%_off', 'zzz-none']) {
      const res = await client.get(`/api/contests?q[agency_name]=${encodeURIComponent(agency)}`);
      const pattern = `%${agency.replace(/[\\%_]/g, '\\$&')}%`;
      expect(res.body.meta.total).toBe(await countWhere(sql`customer_id in (select id from customers where company ilike ${pattern})`));
    }
    const combined = await client.get(`/api/contests?status=approved&q[agency_name]=rimba`);
    expect(combined.body.meta.total).toBe(
      await countWhere(sql`status = 'approved' and customer_id in (select id from customers where company ilike '%rimba%')`),
    );
  });

  it('keeps an agency-name total for later pages only while neither table changes', async () => {
    const where = sql`customer_id in (select id from customers where company ilike '%rimba%')`;
    const totalOf = async () => (await client.get('/api/contests?q[agency_name]=rimba&page=2&per_page=15')).body.meta.total as number;
    expect(await totalOf()).toBe(await countWhere(where));
    // A customer's company changes (the matching customers change), then a contest moves to a matching customer.
    const other = (
      await sql<{ id: number; n: number }>`select customer_id as id, count(*) as n from contests
      where customer_id not in (select id from customers where company ilike '%rimba%') group by 1 order by 2 desc limit 1`.execute(db)
    ).rows[0]!;
    await sql`update customers set company = company || ' Rimba' where id = ${other.id}`.execute(db);
    expect(await totalOf()).toBe(await countWhere(where));
    const moved = (await sql<{ id: number }>`select id from contests where not (${where}) limit 1`.execute(db)).rows[0]!.id;
    const target = (await sql<{ id: number }>`select id from customers where company ilike '%rimba%' limit 1`.execute(db)).rows[0]!.id;
    await sql`update contests set customer_id = ${target} where id = ${moved}`.execute(db);
    expect(await totalOf()).toBe(await countWhere(where));
  });

  it("reads the current edition's totals from the counters, not by counting rows", async () => {
    // Every list is scoped to the admin's current edition (an `edition_id` filter): its total is
    // that edition's counter; with a status, the edition's and status's; through the customer's
    // company, the sum of the edition's and each matching customer's. A counter edited by hand shows.
    const edition = String((await sql<{ id: number }>`select id from editions where year = 2026`.execute(db)).rows[0]!.id);
    const rimba = (await sql<{ id: number }>`select id from customers where company ilike '%rimba%' order by id limit 1`.execute(db)).rows[0]!.id;
    const cases = [
      { url: '/api/contests', column: 'edition_id', value: edition },
      { url: '/api/contests?status=pending', column: 'edition_id+status', value: `${edition}\u001fpending` },
      { url: '/api/contests?q[agency_name]=rimba', column: 'edition_id+customer_id', value: `${edition}\u001f${rimba}` },
    ];
    for (const { url, column, value } of cases) {
      const before = (await client.get(url)).body.meta.total;
      const bump = (n: number) =>
        sql`update ${sql.table(GROUP_COUNTS_TABLE)} set row_count = row_count + ${n} where table_name = 'contests' and column_name = ${column} and value = ${value}`.execute(
          db,
        );
      expect((await bump(1000)).numAffectedRows, `${column} = ${value}`).toBe(1n);
      expect((await client.get(url)).body.meta.total, url).toBe(before + 1000);
      await bump(-1000);
      expect((await client.get(url)).body.meta.total, url).toBe(before);
    }
    expect((await client.get('/api/contests?status=pending')).body.meta.total).toBe(await countWhere(sql`status = 'pending'`));
    // Two filters no entry names together (status and a customer, in the edition) are counted exactly.
    const customer = (await sql<{ id: number }>`select customer_id as id from contests group by 1 order by count(*) desc limit 1`.execute(db)).rows[0]!.id;
    expect((await client.get(`/api/contests?status=pending&q[customer_id]=${customer}`)).body.meta.total).toBe(
      await countWhere(sql`status = 'pending' and customer_id = ${customer}`),
    );
  });

  it("keeps a list's total for its later pages while the tables keep their version, and counts again after a write", async () => {
    const edition = String((await sql<{ id: number }>`select id from editions where year = 2026`.execute(db)).rows[0]!.id);
    const page2 = async () => (await client.get('/api/contests?page=2&per_page=15')).body.meta.total as number;
    const total = await page2();
    // A counter edited by hand changes no data version: later pages keep the total they read.
    await sql`update ${sql.table(GROUP_COUNTS_TABLE)} set row_count = row_count + 1000 where table_name = 'contests' and column_name = 'edition_id' and value = ${edition}`.execute(
      db,
    );
    try {
      expect(await page2()).toBe(total);
      // Any write to contests raises its version: the next page asks the counters again.
      await sql`update contests set updated_at = updated_at where id = (select min(id) from contests)`.execute(db);
      expect(await page2()).toBe(total + 1000);
    } finally {
      await sql`update ${sql.table(GROUP_COUNTS_TABLE)} set row_count = row_count - 1000 where table_name = 'contests' and column_name = 'edition_id' and value = ${edition}`.execute(
        db,
      );
    }
    await sql`update contests set updated_at = updated_at where id = (select min(id) from contests)`.execute(db);
    expect(await page2()).toBe(total);
  });

  it('returns the same rows on every page as a plain offset query, for each sort and direction', async () => {
    const customer = (await sql<{ id: number }>`select customer_id as id from contests group by 1 order by count(*) desc limit 1`.execute(db)).rows[0]!.id;
    for (const [filter, where] of [
      ['', sql`true`],
      ['status=approved&', sql`status = 'approved'`],
      [`q[customer_id]=${customer}&`, sql`customer_id = ${customer}`],
    ] as const) {
      for (const sort of SORTS) {
        for (const direction of ['asc', 'desc'] as const) {
          const total = await countWhere(where);
          const lastPage = Math.max(1, Math.ceil(total / 15));
          for (const page of [1, Math.ceil(lastPage / 2), lastPage - 1, lastPage].filter((p) => p >= 1)) {
            const res = await client.get(`/api/contests?${filter}sort=${sort}&direction=${direction}&page=${page}&per_page=15`);
            const dir = sql.raw(direction);
            const expected = await sql<{ id: number }>`select id from contests where ${where} and ${inEdition}
              order by ${sql.ref(sort)} ${dir}, id ${dir} limit 15 offset ${(page - 1) * 15}`.execute(db);
            expect(
              res.body.data.map((r: { id: number }) => r.id),
              `${filter}${sort} ${direction} page ${page}`,
            ).toEqual(expected.rows.map((r) => Number(r.id)));
          }
        }
      }
    }
  }, 120_000);

  it('keeps counting after a truncate', async () => {
    await sql`truncate grades, assignments, contests`.execute(db);
    expect(await counterRows()).toEqual([]);
    expect((await client.get('/api/contests?status=approved')).body.meta.total).toBe(0);
    expect((await client.get('/api/contests')).body.meta.total).toBe(0);
  });
});
