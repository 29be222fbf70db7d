import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const STATUSES = ['pending', 'submitted', 'approved', 'rejected'] as const;
const CONTESTS = 20;

describe.each(testDatabaseKinds())('contests API on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  const customers: number[] = [];
  let categoryId: number;
  let campaignId: number;
  /** The contests as inserted: id, customer, campaign, status, created and updated times. */
  const rows: Array<{ id: number; customer_id: number; campaign_id: number | null; status: string; created_at: string; updated_at: string }> = [];

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
    const companies = ['Ogilvy Jakarta', 'Leo Burnett KL', '100%_Real Agency'];
    for (const [n, company] of companies.entries()) {
      const created = await client.post('/api/customers', {
        email: `c${n}@agency.test`,
        password: 'secret-1',
        password_confirmation: 'secret-1',
        max_entries: 10,
      });
      const id = created.body.data.id as number;
      await client.put(`/api/customers/${id}`, {
        name: `Customer ${n}`,
        email: `c${n}@agency.test`,
        company,
        phone: '0812',
        job_title: 'Lead',
        is_active: true,
      });
      customers.push(id);
    }
    categoryId = (await client.post('/api/categories', { name: 'Best Use of Social', description: 'Social media campaigns', status: 'active' })).body.data.id;
    campaignId = (
      await client.post('/api/campaigns', {
        name: 'Ramadan Joy',
        brand_name: 'Sirup Co',
        status: 'active',
        start_date: '2025-03-01',
        end_date: '2025-04-01',
        hashtags: '#joy',
        material_link: 'https://example.com/kit',
      })
    ).body.data.id;
    for (let n = 0; n < CONTESTS; n++) {
      const created = new Date(Date.UTC(2025, 0, 1 + ((n * 7) % CONTESTS))).toISOString();
      const updated = new Date(Date.UTC(2025, 5, 1 + ((n * 3) % CONTESTS))).toISOString();
      const row = {
        customer_id: customers[n % 3]!,
        category_id: categoryId,
        campaign_id: n % 4 === 0 ? campaignId : null,
        status: STATUSES[n % 4]!,
        strategy: `Strategy ${n}`,
        created_at: created,
        updated_at: updated,
      };
      const inserted = await t.app.db
        .insertInto('contests' as never)
        .values(row as never)
        .returning(sql<number>`id`.as('id'))
        .executeTakeFirstOrThrow();
      rows.push({ id: Number((inserted as { id: number }).id), ...row });
    }
  });
  afterAll(async () => t?.close());

  const ids = (body: any) => body.data.map((c: any) => c.id as number);

  it('has no create, update or delete: 405 with an Allow header', async () => {
    const id = rows[0]!.id;
    for (const [method, url] of [
      ['POST', '/api/contests'],
      ['PUT', `/api/contests/${id}`],
      ['DELETE', `/api/contests/${id}`],
    ] as const) {
      const res = await client.request(method, url, method === 'DELETE' ? undefined : { status: 'approved' });
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(String(res.headers.allow)).toBe('GET');
    }
    expect((await client.get(`/api/contests/${id}`)).body.data.status).toBe(rows[0]!.status);
    const meta = (await client.get('/api/meta/entities')).body.data.find((e: any) => e.name === 'contest');
    expect(meta.permissions).toEqual({ list: true, read: true, create: false, update: false, delete: false });
  });

  it('lists 15 per page, oldest first, with meta and links', async () => {
    const res = await client.get('/api/contests');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ current_page: 1, last_page: 2, total: CONTESTS, per_page: 15 });
    const expected = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id).map((r) => r.id);
    expect(ids(res.body)).toEqual(expected.slice(0, 15));
    expect(res.body.links).toMatchObject({ prev: null, next: '/api/contests?page=2' });
    expect(ids((await client.get('/api/contests?page=2')).body)).toEqual(expected.slice(15));
  });

  it.each(['created_at', 'updated_at', 'status', 'campaign_id'])('sorts by %s both ways', async (field) => {
    const key = (r: any) => r[field];
    const compare = (a: any, b: any) => {
      const x = key(a);
      const y = key(b);
      if (x === y) return 0;
      if (x === null) return 1; // Postgres: nulls last ascending
      if (y === null) return -1;
      return x < y ? -1 : 1;
    };
    const asc = [...rows].sort((a, b) => compare(a, b) || a.id - b.id).map((r) => r.id);
    const desc = [...rows].sort((a, b) => compare(b, a) || b.id - a.id).map((r) => r.id);
    expect(ids((await client.get(`/api/contests?sort=${field}&per_page=100`)).body)).toEqual(asc);
    expect(ids((await client.get(`/api/contests?sort=${field}&direction=desc&per_page=100`)).body)).toEqual(desc);
  });

  it('refuses other sorts and directions with 400 naming them', async () => {
    const res = await client.get('/api/contests?sort=strategy');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('strategy');
    expect((await client.get('/api/contests?sort=status&direction=up')).status).toBe(400);
  });

  it('filters by agency name: a case-insensitive substring of the customer company', async () => {
    const res = await client.get('/api/contests?q[agency_name]=ogilvy&per_page=100');
    expect(res.status).toBe(200);
    expect(ids(res.body).sort()).toEqual(
      rows
        .filter((r) => r.customer_id === customers[0])
        .map((r) => r.id)
        .sort(),
    );
    expect(res.body.meta.total).toBe(rows.filter((r) => r.customer_id === customers[0]).length);
    expect((await client.get('/api/contests?q[agency_name]=%20BURNETT%20')).body.meta.total).toBe(rows.filter((r) => r.customer_id === customers[1]).length);
  });

  it('treats % and _ in the agency name as themselves and ignores a blank one', async () => {
    expect((await client.get('/api/contests?q[agency_name]=100%25_')).body.meta.total).toBe(rows.filter((r) => r.customer_id === customers[2]).length);
    expect((await client.get('/api/contests?q[agency_name]=%25')).body.meta.total).toBe(rows.filter((r) => r.customer_id === customers[2]).length);
    expect((await client.get('/api/contests?q[agency_name]=nobody')).body).toMatchObject({ data: [], meta: { total: 0, last_page: 1 } });
    expect((await client.get('/api/contests?q[agency_name]=%20%20')).body.meta.total).toBe(CONTESTS);
  });

  it('filters by customer id exactly and refuses one that is not a positive integer', async () => {
    const res = await client.get(`/api/contests?q[customer_id]=${customers[1]}&per_page=100`);
    expect(ids(res.body).sort()).toEqual(
      rows
        .filter((r) => r.customer_id === customers[1])
        .map((r) => r.id)
        .sort(),
    );
    expect((await client.get('/api/contests?q[customer_id]=999999')).body.meta.total).toBe(0);
    for (const bad of ['0', '-1', '1.5', 'abc']) {
      const answer = await client.get(`/api/contests?q[customer_id]=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.message).toContain('q[customer_id]');
    }
  });

  it('takes a submission date as an ISO date or date and time, and refuses anything else with 400 (a fuzzed value got a 500)', async () => {
    for (const good of ['2020-01-01', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00.000+07:00', '2020-01-01 10:00']) {
      const answer = await client.get(`/api/contests?q[created_from]=${encodeURIComponent(good)}`);
      expect(answer.status, good).toBe(200);
      expect(answer.body.meta.total, good).toBe(rows.length);
    }
    expect((await client.get(`/api/contests?q[created_from]=2999-01-01`)).body.meta.total).toBe(0);
    for (const bad of ['x-P^!0', '1', 'may 5', '2020-13-45', '2020-01-01T25', `2020-01-01T00:00:00Z${'0'.repeat(40)}`]) {
      const answer = await client.get(`/api/contests?q[created_from]=${encodeURIComponent(bad)}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.message).toContain('q[created_from]');
    }
  });

  it('combines filters with sort and paging', async () => {
    const res = await client.get(`/api/contests?q[agency_name]=jakarta&q[customer_id]=${customers[0]}&status=pending&sort=updated_at&direction=desc`);
    const expected = rows
      .filter((r) => r.customer_id === customers[0] && r.status === 'pending')
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id - a.id)
      .map((r) => r.id);
    expect(ids(res.body)).toEqual(expected);
    expect((await client.get(`/api/contests?q[agency_name]=leo&q[customer_id]=${customers[0]}`)).body.meta.total).toBe(0);
    expect((await client.get('/api/contests?status=archived')).status).toBe(400);
    expect((await client.get('/api/contests?q[company]=x')).status).toBe(400);
  });

  it('includes category and customer in the list, without the customer password', async () => {
    const res = await client.get('/api/contests?include=category,customer&per_page=1');
    const contest = res.body.data[0];
    expect(contest.category).toEqual({ id: categoryId, name: 'Best Use of Social', description: 'Social media campaigns', status: 'active' });
    expect(Object.keys(contest.customer).sort()).toEqual(['company', 'email', 'id', 'job_title', 'name', 'phone']);
    expect(contest.customer.id).toBe(contest.customer_id);
    expect(contest).not.toHaveProperty('campaign');
    expect((await client.get('/api/contests?include=password')).status).toBe(400);
  });

  it('reads one contest with its campaign, or campaign null when it has none', async () => {
    const withCampaign = rows.find((r) => r.campaign_id !== null)!;
    const res = await client.get(`/api/contests/${withCampaign.id}?include=category,customer,campaign`);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeTruthy();
    expect(res.body.data.campaign).toEqual({
      id: campaignId,
      name: 'Ramadan Joy',
      brand_name: 'Sirup Co',
      status: 'active',
      start_date: '2025-03-01',
      end_date: '2025-04-01',
      contest_count: rows.filter((r) => r.campaign_id === campaignId).length,
      hashtags: '#joy',
      material_link: 'https://example.com/kit',
      credit_to_partners: null,
    });
    expect(res.body.data.customer.company).toBe(['Ogilvy Jakarta', 'Leo Burnett KL', '100%_Real Agency'][customers.indexOf(withCampaign.customer_id)]);
    const without = rows.find((r) => r.campaign_id === null)!;
    const plain = await client.get(`/api/contests/${without.id}?include=campaign`);
    expect(plain.body.data.campaign).toBeNull();
  });

  it("answers 404 for a missing contest and 400 'Invalid contest ID'", async () => {
    const missing = await client.get('/api/contests/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Contest not found.');
    for (const bad of ['0', 'abc', '-3', '1.5']) {
      const res = await client.get(`/api/contests/${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid contest ID');
    }
  });
});
