import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellText, exportBatches, exportColumns, parseExportQuery } from '../../src/features/dataio/server/export-rows.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const STATUSES = ['pending', 'submitted', 'approved', 'rejected'] as const;

/** Every row of a list, through the list endpoint, page by page. */
async function listAll(client: TestClient, path: string, query: string): Promise<Record<string, any>[]> {
  const rows: Record<string, any>[] = [];
  for (let page = 1; ; page++) {
    const res = await client.get(`${path}?per_page=100&page=${page}${query ? `&${query}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    if (page >= res.body.meta.last_page) return rows;
  }
}

describe.each(testDatabaseKinds())('export on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
    const customers: number[] = [];
    // Names and companies repeat and some are empty: sorting on them needs the id tie-break and NULLs.
    // Inserted directly: the API would spend a full-cost scrypt on each password.
    for (let n = 0; n < 9; n++) {
      const company = n % 3 === 0 ? null : n % 3 === 1 ? 'Ogilvy, "Jakarta"' : 'Leo Burnett\nKL';
      const row = {
        name: n % 4 === 0 ? null : `Customer ${n % 3}`,
        email: `c${n}@agency.test`,
        password_hash: 'scrypt$x',
        company,
        phone: '0812',
        job_title: 'Lead',
        is_active: n % 2 === 0,
        max_entries: 10,
      };
      const inserted = await t.app.db
        .insertInto('customers' as never)
        .values(row as never)
        .returning(sql<number>`id`.as('id'))
        .executeTakeFirstOrThrow();
      customers.push(Number((inserted as { id: number }).id));
    }
    const social = (await client.post('/api/categories', { name: 'Best Use of Social', description: 'Social media campaigns', status: 'active' })).body.data.id;
    const film = (await client.post('/api/categories', { name: 'Film', description: 'Films and video spots', status: 'active' })).body.data.id;
    for (let n = 0; n < 23; n++) {
      const row = {
        customer_id: customers[n % customers.length]!,
        category_id: n % 5 === 0 ? film : social,
        status: STATUSES[n % 4]!,
        strategy: `Strategy ${n}, "quoted"\nsecond line ü`,
        created_at: new Date(Date.UTC(2025, 0, 1 + (n % 7))).toISOString(),
      };
      await t.app.db
        .insertInto('contests' as never)
        .values(row as never)
        .execute();
    }
  });
  afterAll(async () => t?.close());

  /** An export's CSV rows as objects keyed by header, and its headers. */
  const csvOf = (text: string) => {
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const records = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    const headers = (parse(text, { bom: true, to_line: 1 }) as string[][])[0]!;
    return { records, headers };
  };

  /** The list's rows as an export would write them, keyed by the English headers. */
  const expectedOf = (endpoint: string, rows: Record<string, any>[]) => {
    const entity = t.app.entities.byEndpoint.get(endpoint)!;
    const columns = exportColumns(entity, 'en');
    return rows.map((row) => Object.fromEntries(columns.map((c) => [c.header, String(cellText(c.value(row)) ?? '')])));
  };

  it.each([
    ['customers', ''],
    ['customers', 'sort=name&direction=desc'],
    ['customers', 'sort=company'],
    ['customers', 'status=active&sort=is_active'],
    ['customers', 'search=ogilvy&sort=email&direction=desc'],
    ['contests', 'include=category,customer'],
    ['contests', 'include=category,customer&status=approved&sort=status&direction=desc'],
    ['contests', 'include=category,customer&q[agency_name]=burnett&sort=updated_at'],
  ])('a CSV export of %s?%s parsed back equals the list', async (endpoint, query) => {
    const listed = await listAll(client, `/api/${endpoint}`, query);
    expect(listed.length).toBeGreaterThan(0);
    const exportQuery = query.replace(/(^|&)include=[^&]*/, '');
    const res = await client.get(`/api/${endpoint}/export?format=csv${exportQuery ? `&${exportQuery}` : ''}`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toMatch(new RegExp(`attachment; filename="${endpoint}-.*\\.csv"`));
    expect(Number(res.headers['x-total-count'])).toBe(listed.length);
    const { records } = csvOf(res.body as string);
    expect(records).toEqual(expectedOf(endpoint, listed));
  });

  it.each(kind === 'postgres' ? [false, true] : [false])(
    'reads in batches in the list order, NULL sort values included, whatever the batch size (cursor: %s)',
    async (cursor) => {
      const entity = t.app.entities.byEndpoint.get('customers')!;
      const ctx = { db: t.app.db, registry: t.app.entities };
      const columns = exportColumns(entity, 'en');
      for (const query of ['sort=name', 'sort=name&direction=desc', 'sort=company&direction=desc', 'sort=company', '']) {
        const listed = await listAll(client, '/api/customers', query);
        const parsed = parseExportQuery(entity, Object.fromEntries(new URLSearchParams(query)), ctx);
        const ids: number[] = [];
        for await (const rows of exportBatches(entity, parsed, columns, ctx, { batch: 2, cursor })) {
          expect(rows.length).toBeLessThanOrEqual(2);
          ids.push(...rows.map((row) => row.id as number));
        }
        expect(ids, query).toEqual(listed.map((row) => row.id));
      }
    },
  );

  it('reads every row of a keyset export sorted by a time whose rows share a millisecond (their microseconds differ)', async () => {
    const entity = t.app.entities.byEndpoint.get('customers')!;
    const ctx = { db: t.app.db, registry: t.app.entities };
    const columns = exportColumns(entity, 'en');
    const added: number[] = [];
    try {
      for (let n = 1; n <= 5; n++) {
        const row = {
          name: `Same ms ${n}`,
          email: `ms${n}@agency.test`,
          password_hash: 'scrypt$x',
          is_active: true,
          max_entries: 10,
          created_at: `2030-03-01T10:00:00.12340${n}Z`,
        };
        const inserted = await t.app.db
          .insertInto('customers' as never)
          .values(row as never)
          .returning(sql<number>`id`.as('id'))
          .executeTakeFirstOrThrow();
        added.push(Number((inserted as { id: number }).id));
      }
      for (const query of ['sort=created_at&direction=desc', 'sort=created_at&direction=asc', '']) {
        const listed = await listAll(client, '/api/customers', query);
        const parsed = parseExportQuery(entity, Object.fromEntries(new URLSearchParams(query)), ctx);
        const ids: number[] = [];
        for await (const rows of exportBatches(entity, parsed, columns, ctx, { batch: 2, cursor: false })) ids.push(...rows.map((row) => row.id as number));
        // It failed with the sort value carried as a JavaScript Date: rows 2-5 (or 1-4) were skipped.
        expect(ids, query).toEqual(listed.map((row) => row.id));
        expect(
          ids.filter((id) => added.includes(id)),
          query,
        ).toHaveLength(5);
      }
    } finally {
      await t.app.db
        .deleteFrom('customers' as never)
        .where('id' as never, 'in', added as never)
        .execute();
    }
  });

  it('an export the client leaves half-way frees its connection (PostgreSQL cursor)', async () => {
    if (kind !== 'postgres') return;
    const entity = t.app.entities.byEndpoint.get('contests')!;
    const ctx = { db: t.app.db, registry: t.app.entities };
    const columns = exportColumns(entity, 'en');
    const parsed = parseExportQuery(entity, {}, ctx);
    // More abandoned reads than the pool has connections: each must give its connection back, out of its transaction.
    for (let n = 0; n < 12; n++) {
      for await (const rows of exportBatches(entity, parsed, columns, ctx, { batch: 2, cursor: true })) {
        expect(rows).toHaveLength(2);
        break;
      }
    }
    const open = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`.execute(t.app.db);
    expect(open.rows[0]!.n).toBe(0);
  });

  it('writes headers in the chosen language, never write-only fields', async () => {
    const id = await client.get('/api/customers/export?lang=id');
    const { headers } = csvOf(id.body as string);
    expect(headers).toContain('Perusahaan');
    const ms = await client.get('/api/customers/export', { 'accept-language': 'ms-MY,ms;q=0.9,en;q=0.5' });
    expect(csvOf(ms.body as string).headers).toContain('Syarikat');
    const en = await client.get('/api/customers/export');
    expect(csvOf(en.body as string).headers).toContain('Company');
    expect(en.body).not.toMatch(/scrypt\$|password/i);
  });

  it('an XLSX export holds the same rows as the list', async () => {
    const listed = await listAll(client, '/api/contests', 'include=category,customer&sort=status');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/contests/export?format=xlsx&sort=status',
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const values: string[][] = [];
    sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    const [headers, ...rows] = values;
    const expected = expectedOf('contests', listed);
    expect(rows.map((row) => Object.fromEntries(headers!.map((h, i) => [h, row[i] ?? ''])))).toEqual(expected);
  });

  it('refuses a bad format or an unknown filter, and an export without sign-in', async () => {
    expect((await client.get('/api/customers/export?format=pdf')).status).toBe(400);
    const unknown = await client.get('/api/customers/export?q[nope]=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('q[nope]');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/customers/export' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is audited', async () => {
    const rows = await sql<{ n: string }>`select count(*) as n from audit_log where action = 'data.export' and entity = 'customer'`.execute(t.app.db);
    expect(Number(rows.rows[0]!.n)).toBeGreaterThan(0);
  });
});
