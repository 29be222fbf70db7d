import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoData } from '../../src/features/demo/server/demo-data.js';
import { createDemoDataOnFirstStart, DEMO_DATA_SETTING } from '../../src/features/demo/server/demo-data-plugin.js';
import { seed } from '../../src/features/demo/server/seed.js';
import { loadConfig } from '../../src/server/config.js';
import { createTestDatabase, type TestDatabase, testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

describe('the demo data set', () => {
  it('is deterministic apart from timestamps counted back from the given moment', () => {
    const strip = (set: ReturnType<typeof buildDemoData>) =>
      JSON.stringify(set, (key, value) =>
        ['created_at', 'updated_at', 'email_verified_at', 'start_date', 'end_date', 'opens_at', 'closes_at', 'submitted_at'].includes(key) ? undefined : value,
      );
    const a = buildDemoData(new Date('2025-01-01T00:00:00Z'));
    const b = buildDemoData(new Date('2026-06-30T12:00:00Z'));
    expect(strip(a)).toBe(strip(b));
    expect(JSON.stringify(buildDemoData(new Date('2025-01-01T00:00:00Z')))).toBe(JSON.stringify(a));
  });

  it('has Malaysian and Indonesian agencies, the Best Use of Social category and texts in every contest', () => {
    const set = buildDemoData(new Date());
    const companies = set.records.company!.map((c) => String(c.name));
    expect(companies.some((n) => n.endsWith('Sdn Bhd'))).toBe(true);
    expect(companies.some((n) => n.startsWith('PT '))).toBe(true);
    expect(set.records.category!.map((c) => c.name)).toContain('Best Use of Social');
    for (const contest of set.records.contest!) {
      for (const field of ['strategy', 'insight', 'creative_idea', 'connection_plan', 'objective_based_kpi'])
        expect(String(contest[field]).length).toBeGreaterThan(30);
      expect(Date.parse(String(contest.created_at))).toBeLessThan(Date.now());
    }
  });
});

describe.each(testDatabaseKinds())('demo data and seeding on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { DEMO_DATA: 'true' });
  });
  afterAll(async () => t?.close());

  it('creates the demo data on the first start, once, and records it', async () => {
    const db = t.app.db as any;
    const count = async (table: string) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
    // 36 contests and 123 grades in the current edition, 6 and 27 in the archived previous one.
    expect(await count('contests')).toBe(42);
    expect(await count('customers')).toBe(12);
    expect(await count('grades')).toBe(150);
    expect(await count('editions')).toBe(2);
    const setting = await db.selectFrom('settings').select('value').where('key', '=', DEMO_DATA_SETTING).executeTakeFirstOrThrow();
    expect(setting.value).toMatch(/^created /);
    expect(setting.value).toContain(': 10 companies, 6 categories, 12 customers,');
    expect(t.app.startupNotes.join(' ')).toContain('Demo data created: 10 companies, 6 categories, ');
    expect(await createDemoDataOnFirstStart(db, t.app.entities)).toBeUndefined();
    await sql`delete from grades`.execute(db);
    expect(await createDemoDataOnFirstStart(db, t.app.entities)).toBeUndefined();
    expect(await count('contests')).toBe(42);
  });

  it('serves demo contests with their customer, category and campaign', async () => {
    const client = await new TestClient(t.app).init();
    await client.signIn();
    const res = await client.get('/api/contests?per_page=15&include=customer,category,campaign');
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(36);
    const row = res.body.data[0];
    expect(row.customer.company).toEqual(expect.any(String));
    expect(row.category.name).toEqual(expect.any(String));
    const customer = await client.get(`/api/customers/${row.customer_id}`);
    expect(customer.body.data).not.toHaveProperty('password_hash');
  });
});

describe.each(testDatabaseKinds())('npm run seed on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => database?.drop());

  it('refuses a missing or bad --contests', async () => {
    const config = loadConfig({ ...database.env, LOG_LEVEL: 'silent' });
    await expect(seed(config, [], () => undefined)).rejects.toThrow(/--contests is required/);
    await expect(seed(config, ['--contests', 'ten'], () => undefined)).rejects.toThrow(/whole number/);
  });

  it.runIf(kind === 'postgres')(
    'fills a database with demo data and N generated contests, counters and indexes ready',
    async () => {
      const config = loadConfig({ ...database.env, LOG_LEVEL: 'silent' });
      const lines: string[] = [];
      const summary = await seed(config, ['--contests', '3000', '--customers', '60'], (line) => lines.push(line));
      expect(summary).toMatch(/^Seeded 3000 contests, 60 customers/);
      expect(lines[0]).toMatch(/^Demo data created/);
      const t = await startTestApp('postgres', { DATABASE_URL: database.env.DATABASE_URL!, DEMO_DATA: 'true' });
      try {
        const client = await new TestClient(t.app).init();
        await client.signIn();
        const db = t.app.db as any;
        const all = await client.get('/api/contests?per_page=15&include=customer,category');
        expect(all.body.meta.total).toBe(3036);
        // The lists show the current edition, where the generated contests go too.
        for (const status of ['pending', 'submitted', 'approved', 'rejected']) {
          const n = Number(
            (
              await sql<{
                n: number;
              }>`select count(*) as n from contests where status = ${status} and edition_id = (select id from editions where year = 2026)`.execute(db)
            ).rows[0]!.n,
          );
          expect(n).toBeGreaterThan(0);
          expect((await client.get(`/api/contests?status=${status}`)).body.meta.total).toBe(n);
        }
        const indexes = (await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'contests'`.execute(db)).rows.map(
          (r) => r.indexname,
        );
        expect(indexes.some((name) => name.startsWith('ix_contests_status_created_at_id_'))).toBe(true);
        expect(indexes.some((name) => name.startsWith('ix_contests_customer_id_updated_at_id_'))).toBe(true);
      } finally {
        await t.close();
      }
    },
    120_000,
  );
});
