import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import {
  checkedStatement,
  DataVersionSnapshot,
  dependencyTables,
  FRESH_COLUMN,
  readDataVersion,
  StaleDataVersions,
} from '../../src/server/operations/list-cache.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

// Lists are reused while the tables they were read from are unchanged (`x-list-cache: hit`); every
// kind of change to any of those tables, through the API, through SQL or from another server on
// the same database, makes the next list a fresh read that shows it.
describe.each(testDatabaseKinds())('list cache on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let customerId: number;
  let categoryId: number;
  let campaignId: number;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
    customerId = (await client.post('/api/customers', { email: 'lead@ogilvy.test', password: 'secret-1', password_confirmation: 'secret-1', max_entries: 5 }))
      .body.data.id;
    await client.put(`/api/customers/${customerId}`, {
      name: 'Ayu Lestari',
      email: 'lead@ogilvy.test',
      company: 'Ogilvy Jakarta',
      phone: '0812',
      job_title: 'Lead',
      is_active: true,
    });
    categoryId = (await client.post('/api/categories', { name: 'Best Use of Social', description: 'Social media campaigns', status: 'active' })).body.data.id;
    campaignId = (
      await client.post('/api/campaigns', { name: 'Ramadan Joy', brand_name: 'Sirup Co', status: 'active', start_date: '2025-03-01', end_date: '2025-04-01' })
    ).body.data.id;
    await insertContest(campaignId);
  });
  afterAll(async () => t?.close());

  const insertContest = (campaign: number | null) =>
    sql`insert into contests (customer_id, category_id, campaign_id, status) values (${customerId}, ${categoryId}, ${campaign}, 'pending')`.execute(t.app.db);

  /** Asks twice; the second answer must come from the cache and equal the first. */
  const listTwice = async (url: string) => {
    const first = await client.get(url);
    expect(first.status, url).toBe(200);
    const second = await client.get(url);
    expect(second.headers['x-list-cache'], url).toBe('hit');
    expect(second.body).toEqual(first.body);
    return first;
  };

  it('answers a repeated list from the cache, with the same body and JSON content type', async () => {
    const first = await client.get('/api/categories?sort=name');
    expect(first.headers['x-list-cache']).toBe('miss');
    const second = await client.get('/api/categories?sort=name');
    expect(second.headers['x-list-cache']).toBe('hit');
    expect(String(second.headers['content-type'])).toMatch(/^application\/json/);
    expect(second.body).toEqual(first.body);
  });

  it('shares an entry between the same parameters in another order, and not between different ones', async () => {
    await listTwice('/api/contests?page=1&per_page=15&include=customer,category');
    expect((await client.get('/api/contests?include=customer,category&per_page=15&page=1')).headers['x-list-cache']).toBe('hit');
    expect((await client.get('/api/contests?include=customer&per_page=15&page=1')).headers['x-list-cache']).toBe('miss');
  });

  it('never caches an error', async () => {
    expect((await client.get('/api/categories?sort=nope')).status).toBe(400);
    const again = await client.get('/api/categories?sort=nope');
    expect(again.status).toBe(400);
    expect(again.headers['x-list-cache']).toBeUndefined();
  });

  it('shows a record created, changed or deleted through the API at the next list', async () => {
    const before = await listTwice('/api/categories');
    const created = (await client.post('/api/categories', { name: 'Best Film', description: 'Moving pictures of note', status: 'active' })).body.data;
    const afterCreate = await client.get('/api/categories');
    expect(afterCreate.headers['x-list-cache']).toBe('miss');
    expect(afterCreate.body.meta.total).toBe(before.body.meta.total + 1);

    await client.put(`/api/categories/${created.id}`, { name: 'Best Short Film', description: 'Moving pictures of note', status: 'active' });
    const afterUpdate = await client.get('/api/categories');
    expect(afterUpdate.headers['x-list-cache']).toBe('miss');
    expect(afterUpdate.body.data.map((c: any) => c.name)).toContain('Best Short Film');

    expect((await client.delete(`/api/categories/${created.id}`)).status).toBe(204);
    const afterDelete = await client.get('/api/categories');
    expect(afterDelete.body.meta.total).toBe(before.body.meta.total);
  });

  it('shows rows written straight into the table (another system loading contests)', async () => {
    const before = await listTwice('/api/contests');
    await insertContest(null);
    const after = await client.get('/api/contests');
    expect(after.headers['x-list-cache']).toBe('miss');
    expect(after.body.meta.total).toBe(before.body.meta.total + 1);
  });

  it('follows changes to included and filtered relations: a renamed company shows in the contests list and its agency filter', async () => {
    const url = '/api/contests?include=customer&q[agency_name]=ogilvy';
    const before = await listTwice(url);
    expect(before.body.meta.total).toBeGreaterThan(0);
    expect(before.body.data[0].customer.company).toBe('Ogilvy Jakarta');

    await client.put(`/api/customers/${customerId}`, {
      name: 'Ayu Lestari',
      email: 'lead@ogilvy.test',
      company: 'Leo Burnett KL',
      phone: '0812',
      job_title: 'Lead',
      is_active: true,
    });
    const renamed = await client.get(url);
    expect(renamed.headers['x-list-cache']).toBe('miss');
    expect(renamed.body.meta.total).toBe(0);
    const all = await client.get('/api/contests?include=customer');
    expect(all.body.data[0].customer.company).toBe('Leo Burnett KL');
  });

  it('follows computed fields: a new contest changes its campaign’s contest count in the campaigns list', async () => {
    const before = await listTwice('/api/campaigns');
    const count = before.body.data.find((c: any) => c.id === campaignId).contest_count as number;
    await insertContest(campaignId);
    const after = await client.get('/api/campaigns');
    expect(after.headers['x-list-cache']).toBe('miss');
    expect(after.body.data.find((c: any) => c.id === campaignId).contest_count).toBe(count + 1);
  });

  it('is not disturbed by a write that was rolled back', async () => {
    await listTwice('/api/categories');
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into categories (name, slug, description, status) values ('Ghost', 'ghost', 'Never committed', 'active')`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    const after = await client.get('/api/categories');
    expect(after.headers['x-list-cache']).toBe('hit');
    expect(after.body.data.map((c: any) => c.name)).not.toContain('Ghost');
  });

  /** A handle on the app's database that counts the statements sent through it (a Kysely plugin sees each one). */
  const countedHandle = () => {
    let reads = 0;
    const counted = t.app.db.withPlugin({
      transformQuery: (args) => {
        reads++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    return { counted, reads: () => reads };
  };

  it('reads the data versions once per snapshot, giving the sums a version read gives, and a new snapshot sees a write', async () => {
    const { counted, reads } = countedHandle();
    const tables = dependencyTables(t.app.entities.byName.get('contest')!, t.app.entities);
    const snapshot = new DataVersionSnapshot(counted);
    const before = await snapshot.of(tables);
    expect(before).toBe(await readDataVersion(t.app.db, tables));
    expect(await snapshot.of(['contests'])).toBe(await readDataVersion(t.app.db, ['contests']));
    expect(await snapshot.of(['contests', 'customers', 'contests'])).toBe(await readDataVersion(t.app.db, ['contests', 'customers']));
    expect(await snapshot.of(['no_such_table'])).toBe('0');
    expect(reads()).toBe(1);
    await insertContest(campaignId);
    expect(await snapshot.of(tables)).toBe(before);
    const after = await new DataVersionSnapshot(t.app.db).of(tables);
    expect(after).toBe(await readDataVersion(t.app.db, tables));
    expect(BigInt(after)).toBeGreaterThan(BigInt(before));
  });

  it('presumes the versions last read without a statement, and its check in a page statement fails once they move', async () => {
    const { counted, reads } = countedHandle();
    // A handle that has read no versions yet has nothing to presume; once it has, a presuming
    // snapshot answers without a statement.
    expect(new DataVersionSnapshot(counted, { presume: true }).presumed, 'no versions read on that handle yet').toBe(false);
    await new DataVersionSnapshot(counted).of(['contests']);
    expect(reads()).toBe(1);
    const presumed = new DataVersionSnapshot(counted, { presume: true });
    expect(presumed.presumed).toBe(true);
    const version = await presumed.of(['contests', 'customers']);
    expect(version).toBe(await readDataVersion(t.app.db, ['contests', 'customers']));
    // The cache's version is not checked: only the tables asked for without `unchecked`.
    await presumed.of(['categories'], { unchecked: true });
    expect(presumed.check()).toEqual({ tables: ['contests', 'customers'], expected: version });
    expect(reads(), 'the presuming snapshot sent no statement').toBe(1);
    const statement = checkedStatement({ sql: 'select id from contests where id > $1 order by id limit 1', parameters: [0] }, presumed);
    expect(statement.checked).toBe(true);
    const run = async () => (await t.app.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(statement.sql, [...statement.parameters]))).rows[0]!;
    expect((await run())[FRESH_COLUMN]).toBe(true);
    await presumed.confirm();
    // A write on a checked table (another server's, or SQL): the same statement's check is false.
    await sql`update categories set description = 'unchecked table' where id = ${categoryId}`.execute(t.app.db);
    expect((await run())[FRESH_COLUMN], 'a write to an unchecked table').toBe(true);
    await insertContest(campaignId);
    expect((await run())[FRESH_COLUMN]).toBe(false);
    await expect(presumed.confirm()).rejects.toBeInstanceOf(StaleDataVersions);
    // A snapshot that reads first adds no check; a presuming one with nothing asked adds none either.
    expect(checkedStatement({ sql: 'select 1', parameters: [] }, new DataVersionSnapshot(t.app.db)).checked).toBe(false);
    expect(checkedStatement({ sql: 'select 1', parameters: [] }, new DataVersionSnapshot(t.app.db, { presume: true })).checked).toBe(false);
  });

  it('shows a write made straight in SQL at the next list, though the server presumed the versions it had read', async () => {
    const url = '/api/contests?sort=created_at&direction=desc&include=customer,category';
    // Each distinct query once: no cache entry, so the server presumes its versions.
    const first = await client.get(`${url}&per_page=14`);
    expect(first.status).toBe(200);
    const top = first.body.data[0];
    await sql`update contests set status = 'rejected' where id = ${top.id}`.execute(t.app.db);
    await insertContest(campaignId);
    const after = await client.get(`${url}&per_page=13`);
    expect(after.status).toBe(200);
    expect(after.body.meta.total).toBe(first.body.meta.total + 1);
    expect(after.body.data.find((c: any) => c.id === top.id)?.status).toBe('rejected');
    const expected = await sql<{ id: number }>`select id from contests order by created_at desc, id desc limit 26`.execute(t.app.db);
    expect(after.body.data.map((c: any) => c.id)).toEqual(expected.rows.slice(0, 13).map((row) => row.id));
    // A later page plans with the total kept by the first (under the versions it presumed): one more
    // row straight in SQL, and that page must count it.
    await insertContest(campaignId);
    const second = await client.get(`${url}&per_page=13&page=2`);
    expect(second.status).toBe(200);
    expect(second.body.meta.total).toBe(first.body.meta.total + 2);
    const now = await sql<{ id: number }>`select id from contests order by created_at desc, id desc limit 26`.execute(t.app.db);
    expect(second.body.data.map((c: any) => c.id)).toEqual(now.rows.slice(13, 26).map((row) => row.id));
  });

  it('is off with LIST_CACHE_MB=0', async () => {
    const uncached = await startTestApp(kind, { LIST_CACHE_MB: '0' });
    try {
      const other = await new TestClient(uncached.app).init();
      await other.signIn();
      await other.get('/api/categories');
      const again = await other.get('/api/categories');
      expect(again.status).toBe(200);
      expect(again.headers['x-list-cache']).toBeUndefined();
    } finally {
      await uncached.close();
    }
  });

  it.runIf(kind === 'postgres')('shows a change made through another server on the same database at the next list', async () => {
    const second = await buildApp(loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false', BACKUP_INTERVAL_HOURS: '0', ...t.database.env }), { logger: false });
    try {
      // Another admin: one admin's second sign-in would end the first client's session.
      expect((await client.post('/api/auth/register', { name: 'Budi Santoso', email: 'budi@example.com', password: 'budi-password-1' })).status).toBe(201);
      const secondClient = await new TestClient(second).init();
      await secondClient.signIn('budi@example.com', 'budi-password-1');
      const before = await listTwice('/api/categories?sort=name');
      const created = await secondClient.post('/api/categories', {
        name: 'Aa First Alphabetically',
        description: 'Made on the other server',
        status: 'active',
      });
      expect(created.status).toBe(201);
      const after = await client.get('/api/categories?sort=name');
      expect(after.headers['x-list-cache']).toBe('miss');
      expect(after.body.meta.total).toBe(before.body.meta.total + 1);
      expect(after.body.data[0].name).toBe('Aa First Alphabetically');
    } finally {
      await second.close();
    }
  });
});
