import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const base = { name: 'Ramadan Joy', brand_name: 'Sirup Co', status: 'active', start_date: '2025-03-01', end_date: '2025-04-01' };
const errorsOf = (body: any): string[] => (body.errors ?? []).map((e: any) => `${e.path} ${e.keyword} ${e.messageKey}`).sort();

describe.each(testDatabaseKinds())('campaigns API on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let customerId: number;
  let categoryId: number;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
    customerId = (await client.post('/api/customers', { email: 'c@x.test', password: 'secret-1', password_confirmation: 'secret-1', max_entries: 3 })).body.data
      .id;
    categoryId = (await client.post('/api/categories', { name: 'Best Film', description: 'Moving pictures of note', status: 'active' })).body.data.id;
  });
  afterAll(async () => t?.close());

  const addContests = async (campaignId: number | null, count: number) => {
    for (let n = 0; n < count; n++) {
      await sql`insert into contests (customer_id, category_id, campaign_id, status) values (${customerId}, ${categoryId}, ${campaignId}, 'pending')`.execute(
        t.app.db,
      );
    }
  };

  it('creates a campaign with every field and a contest count of 0', async () => {
    const body = { ...base, hashtags: '#joy #berbagi', material_link: 'https://example.com/kit.pdf', credit_to_partners: 'Agency X, Studio Y' };
    const res = await client.post('/api/campaigns', body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ ...body, contest_count: 0 });
  });

  it('computes contest_count from the contests that name the campaign, in list and read', async () => {
    const a = (await client.post('/api/campaigns', { ...base, name: 'Counted A' })).body.data.id;
    const b = (await client.post('/api/campaigns', { ...base, name: 'Counted B' })).body.data.id;
    await addContests(a, 3);
    await addContests(b, 1);
    await addContests(null, 2);
    expect((await client.get(`/api/campaigns/${a}`)).body.data.contest_count).toBe(3);
    const list = await client.get('/api/campaigns?search=Counted&sort=name');
    expect(list.body.data.map((c: any) => [c.name, c.contest_count])).toEqual([
      ['Counted A', 3],
      ['Counted B', 1],
    ]);
    const updated = await client.put(`/api/campaigns/${b}`, { ...base, name: 'Counted B2' });
    expect(updated.body.data.contest_count).toBe(1);
    expect((await client.get('/api/campaigns?sort=contest_count')).status).toBe(400);
  });

  it('refuses an end date before the start date, on create and update', async () => {
    const res = await client.post('/api/campaigns', { ...base, start_date: '2025-05-02', end_date: '2025-05-01' });
    expect(res.status).toBe(422);
    expect(errorsOf(res.body)).toEqual(['end_date compare validation.dateRange.endBeforeStart']);
    const same = await client.post('/api/campaigns', { ...base, name: 'One day', start_date: '2025-05-01', end_date: '2025-05-01' });
    expect(same.status).toBe(201);
    const open = await client.post('/api/campaigns', { ...base, name: 'Open ended', end_date: null });
    expect(open.status).toBe(201);

    const id = same.body.data.id;
    const bad = await client.put(`/api/campaigns/${id}`, { ...base, name: 'One day', start_date: '2025-06-01', end_date: '2025-05-31' });
    expect(errorsOf(bad.body)).toEqual(['end_date compare validation.dateRange.endBeforeStart']);
  });

  it('checks a comparison against the stored value when the body leaves one side out', async () => {
    const id = (await client.post('/api/campaigns', { name: 'Partial', status: 'draft', start_date: '2025-07-10', end_date: '2025-07-20' })).body.data.id;
    // The edit form has start_date; a body without it keeps the stored one.
    const { start_date: _omit, ...withoutStart } = { ...base, name: 'Partial', start_date: undefined, end_date: '2025-07-01' };
    const res = await client.put(`/api/campaigns/${id}`, withoutStart);
    expect(res.status).toBe(422);
    expect(errorsOf(res.body)).toEqual(['end_date compare validation.dateRange.endBeforeStart']);
    expect((await client.put(`/api/campaigns/${id}`, { ...withoutStart, end_date: '2025-07-11' })).status).toBe(200);
  });

  it.each([['javascript:alert(1)'], ['ftp://example.com/kit'], ['not a url']])('refuses the material link %s: only http(s)', async (link) => {
    const res = await client.post('/api/campaigns', { ...base, material_link: link });
    expect(res.status).toBe(422);
    expect(res.body.errors.every((e: any) => e.path === 'material_link' && e.messageKey === 'validation.url.http')).toBe(true);
  });

  it('applies the name and status rules', async () => {
    const res = await client.post('/api/campaigns', { name: ' ', status: 'live' });
    expect(errorsOf(res.body)).toEqual(['name required validation.name.required', 'status enum validation.campaign_status.enum']);
    const dates = await client.post('/api/campaigns', { ...base, start_date: '2025-02-30' });
    expect(errorsOf(dates.body)).toEqual(['start_date format validation.format']);
  });

  it('empties the campaign of its contests when it is deleted', async () => {
    const id = (await client.post('/api/campaigns', { ...base, name: 'Short lived' })).body.data.id;
    await addContests(id, 2);
    expect((await client.delete(`/api/campaigns/${id}`)).status).toBe(204);
    const left = await sql<{ n: number }>`select count(*)::int as n from contests where campaign_id = ${id}`.execute(t.app.db);
    expect(left.rows[0]!.n).toBe(0);
    const orphaned = await sql<{ n: number }>`select count(*)::int as n from contests where campaign_id is null`.execute(t.app.db);
    expect(orphaned.rows[0]!.n).toBeGreaterThanOrEqual(2);
  });
});
