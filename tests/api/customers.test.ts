import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/auth/password.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const valid = { email: 'ana@agency.test', password: 'secret-1', password_confirmation: 'secret-1', max_entries: 5 };

/** The field errors of a 422 as `path keyword messageKey`, sorted, for exact comparison. */
const errorsOf = (body: any): string[] => (body.errors ?? []).map((e: any) => `${e.path} ${e.keyword} ${e.messageKey}`).sort();

describe.each(testDatabaseKinds())('customers API on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
  });
  afterAll(async () => t?.close());

  const create = (body: Record<string, unknown>) => client.post('/api/customers', body);
  const storedRow = async (id: number) => (await sql<Record<string, any>>`select * from customers where id = ${id}`.execute(t.app.db)).rows[0]!;

  it('creates a customer, stores the password only as a scrypt hash and never returns it', async () => {
    const res = await create(valid);
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toMatchObject({ email: 'ana@agency.test', max_entries: 5, is_active: true, name: null, email_verified_at: null });
    for (const secret of ['password', 'password_confirmation', 'password_hash']) expect(data).not.toHaveProperty(secret);
    expect(JSON.stringify(res.body)).not.toContain('secret-1');

    const row = await storedRow(data.id);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row).not.toHaveProperty('password');
    expect(row).not.toHaveProperty('password_confirmation');
    expect(await verifyPassword('secret-1', row.password_hash)).toBe(true);
    expect(await verifyPassword('secret-2', row.password_hash)).toBe(false);

    const read = await client.get(`/api/customers/${data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('password_hash');
    const list = await client.get('/api/customers');
    expect(JSON.stringify(list.body)).not.toContain('scrypt$');
    const meta = await client.get('/api/meta/entities');
    expect(JSON.stringify(meta.body)).not.toContain('scrypt$');
  });

  it.each([
    ['no e-mail', { email: undefined }, ['email required validation.email.required']],
    ['a blank e-mail', { email: '   ' }, ['email required validation.email.required']],
    ['an invalid e-mail', { email: 'not-an-email' }, ['email format validation.email.invalid']],
    ['no password', { password: undefined }, ['password required validation.password.required']],
    ['a 5-character password', { password: '12345', password_confirmation: '12345' }, ['password minLength validation.password.min']],
    ['a 51-character password', { password: 'p'.repeat(51), password_confirmation: 'p'.repeat(51) }, ['password maxLength validation.password.max']],
    ['no confirmation', { password_confirmation: undefined }, ['password_confirmation required validation.password_confirmation.required']],
    ['a different confirmation', { password_confirmation: 'secret-2' }, ['password_confirmation compare validation.password_confirmation.match']],
    ['no max entries', { max_entries: undefined }, ['max_entries required validation.max_entries.required']],
    ['max entries as text', { max_entries: 'five' }, ['max_entries type validation.max_entries.required']],
    ['max entries 0', { max_entries: 0 }, ['max_entries minimum validation.max_entries.min']],
    ['max entries 101', { max_entries: 101 }, ['max_entries maximum validation.max_entries.max']],
  ])('refuses %s with 422 and its message key', async (_label, change, expected) => {
    const body: Record<string, unknown> = { ...valid, email: `rule-${Math.random().toString(36).slice(2)}@x.test`, ...change };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION');
    expect(errorsOf(res.body)).toEqual(expected);
  });

  it('accepts the boundaries: a 6- and a 50-character password, max entries 1 and 100', async () => {
    for (const [n, password, maxEntries] of [
      [1, '123456', 1],
      [2, 'p'.repeat(50), 100],
    ] as const) {
      const res = await create({ email: `edge${n}@x.test`, password, password_confirmation: password, max_entries: maxEntries });
      expect(res.status).toBe(201);
    }
  });

  it('reports every broken rule of an empty body at once', async () => {
    const res = await create({});
    expect(res.status).toBe(422);
    expect(errorsOf(res.body)).toEqual([
      'email required validation.email.required',
      'max_entries required validation.max_entries.required',
      'password required validation.password.required',
      'password_confirmation required validation.password_confirmation.required',
    ]);
  });

  it('refuses fields the create form does not have (is_active, password_hash, id)', async () => {
    const res = await create({ ...valid, email: 'extra@x.test', is_active: false, password_hash: 'scrypt$x', id: 99 });
    expect(res.status).toBe(422);
    expect(errorsOf(res.body)).toEqual([
      'id additionalProperties validation.additionalProperties',
      'is_active additionalProperties validation.additionalProperties',
      'password_hash additionalProperties validation.additionalProperties',
    ]);
  });

  it('answers 409 on the email field for an e-mail already in use', async () => {
    expect((await create({ ...valid, email: 'twice@x.test' })).status).toBe(201);
    const res = await create({ ...valid, email: 'twice@x.test' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.errors).toEqual([{ path: 'email', keyword: 'unique', messageKey: 'validation.email.unique', params: {} }]);
  });

  describe('edit', () => {
    let id: number;
    beforeAll(async () => {
      id = (await create({ ...valid, email: 'edit-me@x.test' })).body.data.id;
    });
    const full = { name: 'Ana Lim', email: 'edit-me@x.test', phone: '+60 12-345 6789', company: 'Lim & Co', job_title: 'Planner', is_active: true };

    it('updates every field of the edit form and keeps the password hash', async () => {
      const before = (await storedRow(id)).password_hash;
      const res = await client.put(`/api/customers/${id}`, full);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject(full);
      expect(res.body.data).not.toHaveProperty('password_hash');
      expect((await storedRow(id)).password_hash).toBe(before);
    });

    it('stores empty optional values as null', async () => {
      const res = await client.put(`/api/customers/${id}`, { ...full, name: '', phone: '  ', company: null, job_title: '' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: null, phone: null, company: null, job_title: null });
      const row = await storedRow(id);
      expect([row.name, row.phone, row.company, row.job_title]).toEqual([null, null, null, null]);
    });

    it('switches the status with a boolean', async () => {
      const res = await client.put(`/api/customers/${id}`, { ...full, is_active: false });
      expect(res.status).toBe(200);
      expect(res.body.data.is_active).toBe(false);
      expect((await client.put(`/api/customers/${id}`, { ...full, is_active: 'false' })).body.errors).toEqual([
        { path: 'is_active', keyword: 'type', messageKey: 'validation.boolean', params: { type: 'boolean' } },
      ]);
    });

    it('applies the customer edit rules on the server', async () => {
      const res = await client.put(`/api/customers/${id}`, {
        name: 'n'.repeat(101),
        email: 'nope',
        phone: '1'.repeat(21),
        company: 'c'.repeat(101),
        job_title: 'j'.repeat(101),
        is_active: true,
      });
      expect(res.status).toBe(422);
      expect(errorsOf(res.body)).toEqual([
        'company maxLength validation.company.max',
        'email format validation.email.invalid',
        'job_title maxLength validation.job_title.max',
        'name maxLength validation.name.max',
        'phone maxLength validation.phone.max',
      ]);
      const limits = await client.put(`/api/customers/${id}`, {
        ...full,
        name: 'n'.repeat(100),
        phone: '1'.repeat(20),
        company: 'c'.repeat(100),
        job_title: 'j'.repeat(100),
      });
      expect(limits.status).toBe(200);
    });

    it('refuses a password or max entries change through the edit form', async () => {
      const res = await client.put(`/api/customers/${id}`, { ...full, password: 'another-1', max_entries: 3 });
      expect(res.status).toBe(422);
      expect(errorsOf(res.body)).toEqual([
        'max_entries additionalProperties validation.additionalProperties',
        'password additionalProperties validation.additionalProperties',
      ]);
    });

    it('answers 409 when the new e-mail belongs to another customer', async () => {
      await create({ ...valid, email: 'taken@x.test' });
      const res = await client.put(`/api/customers/${id}`, { ...full, email: 'taken@x.test' });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({ path: 'email', messageKey: 'validation.email.unique' });
    });

    it("answers 400 'Invalid customer ID' and 404 for a missing customer", async () => {
      const bad = await client.put('/api/customers/0', full);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Invalid customer ID');
      expect(bad.body.errors[0].messageKey).toBe('entities.customer.invalid_id');
      const missing = await client.get('/api/customers/999999');
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Customer not found.');
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      // Straight into the table: these tests are about listing, and each API create costs a scrypt.
      for (let n = 1; n <= 12; n++) {
        const named = n % 3 === 0;
        await sql`insert into customers (email, max_entries, is_active, name, company)
          values (${`list${String(n).padStart(2, '0')}@list.test`}, 5, ${!named}, ${named ? `Listed ${n}` : null},
                  ${named ? (n % 2 ? 'Ogilvy Jakarta' : 'Leo KL') : null})`.execute(t.app.db);
      }
    });

    it('pages by 10 by default with the spec meta and links', async () => {
      const res = await client.get('/api/customers?search=@list.test');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(10);
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 2, total: 12, per_page: 10 });
      expect(res.body.links.next).toContain('page=2');
      const second = await client.get('/api/customers?search=@list.test&page=2&per_page=10');
      expect(second.body.data).toHaveLength(2);
    });

    it('filters by status and searches name, e-mail and company', async () => {
      const inactive = await client.get('/api/customers?search=@list.test&status=inactive&per_page=100');
      expect(inactive.body.data.map((c: any) => c.email).sort()).toEqual(['list03@list.test', 'list06@list.test', 'list09@list.test', 'list12@list.test']);
      expect((await client.get('/api/customers?search=ogilvy')).body.meta.total).toBe(2);
      expect((await client.get('/api/customers?search=LISTED 1')).body.data.map((c: any) => c.name)).toEqual(['Listed 12']);
      expect((await client.get('/api/customers?status=maybe')).status).toBe(400);
    });

    it('sorts by e-mail both ways and refuses an unknown sort', async () => {
      const asc = await client.get('/api/customers?search=@list.test&sort=email&per_page=3');
      expect(asc.body.data.map((c: any) => c.email)).toEqual(['list01@list.test', 'list02@list.test', 'list03@list.test']);
      const desc = await client.get('/api/customers?search=@list.test&sort=email&direction=desc&per_page=2');
      expect(desc.body.data.map((c: any) => c.email)).toEqual(['list12@list.test', 'list11@list.test']);
      expect((await client.get('/api/customers?sort=password_hash')).status).toBe(400);
    });
  });

  it('deletes a customer (204, then 404) and refuses while contests use it (409)', async () => {
    const id = (await create({ ...valid, email: 'gone@x.test' })).body.data.id;
    expect((await client.delete(`/api/customers/${id}`)).status).toBe(204);
    expect((await client.get(`/api/customers/${id}`)).status).toBe(404);
    expect((await client.delete(`/api/customers/${id}`)).status).toBe(404);

    const used = (await create({ ...valid, email: 'used@x.test' })).body.data.id;
    const category = await client.post('/api/categories', { name: 'Best Film', description: 'Moving pictures of note', status: 'active' });
    await sql`insert into contests (customer_id, category_id, status) values (${used}, ${category.body.data.id}, 'pending')`.execute(t.app.db);
    const res = await client.delete(`/api/customers/${used}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This customer is still used by 1 contest; it cannot be deleted.');
    // What the client words in the user's language: the key, the entity that uses it and how many.
    expect(res.body.errors).toEqual([{ path: '', keyword: 'inUse', messageKey: 'errors.inUse', params: { entity: 'contest', count: 1 } }]);
  });
});
