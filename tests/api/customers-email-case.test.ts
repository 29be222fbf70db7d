import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const body = (email: string) => ({ email, password: ' secret-1 ', password_confirmation: ' secret-1 ', max_entries: 5 });
const unique = [{ path: 'email', keyword: 'unique', messageKey: 'validation.email.unique', params: {} }];

describe.each(testDatabaseKinds())('customer e-mails are unique case-insensitively on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
  });
  afterAll(async () => t?.close());

  const storedEmail = async (id: number) => (await sql<{ email: string }>`select email from customers where id = ${id}`.execute(t.app.db)).rows[0]?.email;

  it('stores an e-mail trimmed and lower-cased, and refuses the same address in other capitals with 409 on email', async () => {
    const first = await client.post('/api/customers', body('  Ana.Lim@Agency.Test '));
    expect(first.status).toBe(201);
    expect(first.body.data.email).toBe('ana.lim@agency.test');
    expect(await storedEmail(first.body.data.id)).toBe('ana.lim@agency.test');

    for (const variant of ['ana.lim@agency.test', 'ANA.LIM@AGENCY.TEST', 'Ana.lim@agency.TEST']) {
      const res = await client.post('/api/customers', body(variant));
      expect(res.status, variant).toBe(409);
      expect(res.body.code).toBe('CONFLICT');
      expect(res.body.errors).toEqual(unique);
    }
  });

  it('lower-cases on edit, keeps a customer saving its own address in other capitals, and refuses another one’s', async () => {
    const own = (await client.post('/api/customers', body('edit.case@x.test'))).body.data.id as number;
    await client.post('/api/customers', body('taken.case@x.test'));
    const same = await client.put(`/api/customers/${own}`, { email: 'Edit.Case@X.test', is_active: true });
    expect(same.status).toBe(200);
    expect(same.body.data.email).toBe('edit.case@x.test');

    const clash = await client.put(`/api/customers/${own}`, { email: 'TAKEN.case@x.test', is_active: true });
    expect(clash.status).toBe(409);
    expect(clash.body.errors).toEqual(unique);
    expect(await storedEmail(own)).toBe('edit.case@x.test');
  });

  it('counts an address stored in capitals before the rule (seeded straight into the table) as taken', async () => {
    await sql`insert into customers (email, max_entries, is_active) values ('Legacy_Mixed@Old.Test', 5, true)`.execute(t.app.db);
    const res = await client.post('/api/customers', body('legacy_mixed@old.test'));
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual(unique);
    // `_` is a LIKE wildcard: an address differing only where the stored one has `_` is not a clash.
    expect((await client.post('/api/customers', body('legacyxmixed@old.test'))).status).toBe(201);
  });

  it('finds lower-cased addresses by a search in any capitals', async () => {
    const res = await client.get('/api/customers?search=ANA.LIM@AGENCY');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { email: string }) => c.email)).toEqual(['ana.lim@agency.test']);
  });
});
