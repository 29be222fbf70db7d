import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';
import { ENTITY_ENV } from './entities-helpers.js';

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
const JUROR_PASSWORD = 'juror-strong-passphrase';

describe.each(testDatabaseKinds())('roles on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let juror: TestClient;
  let juryId: number;

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind, ENTITY_ENV));
    const jury = await admin.post('/api/juries', { name: 'Rina Wijaya', email: 'rina@example.com', round: 1, is_active: true });
    expect(jury.status).toBe(201);
    juryId = jury.body.data.id;
    const created = await admin.post('/api/auth/register', {
      name: 'Rina Wijaya',
      email: 'rina.juror@example.com',
      password: JUROR_PASSWORD,
      role: 'juror',
      jury_id: juryId,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ role: 'juror', juryId });
    juror = await new TestClient(t.app).init();
    await juror.signIn('rina.juror@example.com', JUROR_PASSWORD);
  });
  afterAll(async () => t?.close());

  it('signs a juror in with data.role and the role claim in the access token', async () => {
    const other = await new TestClient(t.app).init();
    const login = await other.signIn('rina.juror@example.com', JUROR_PASSWORD);
    juror = other;
    expect(login.data).toMatchObject({ role: 'juror', juryId });
    expect(claimsOf(login.token).role).toBe('juror');
    expect(claimsOf(admin.token).role).toBe('admin');
  });

  it('answers a juror 403 FORBIDDEN on every console route', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/dashboard'],
      ['GET', '/api/notifications/new-contests'],
      ['GET', '/api/categories'],
      ['GET', '/api/juries'],
      ['GET', `/api/juries/${juryId}`],
      ['PUT', `/api/juries/${juryId}`, { name: 'Changed' }],
      ['POST', '/api/companies', { name: 'Acme' }],
      ['GET', '/api/contests'],
      ['GET', '/api/fixture-ledgers'],
      ['POST', '/api/auth/register', { name: 'Sneaky Admin', email: 'sneaky@example.com', password: 'sneaky-long-passphrase' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await juror.request(method as 'GET', url, body);
      expect({ url, status: res.status, code: res.body?.code }).toEqual({ url, status: 403, code: 'FORBIDDEN' });
    }
  });

  it('lets a juror use the routes that allow jurors: own profile, password, meta', async () => {
    expect((await juror.get('/api/auth/me')).body.data).toMatchObject({ role: 'juror', juryId });
    expect((await juror.get('/api/auth/check')).status).toBe(200);
    expect((await juror.put('/api/auth/me', { name: 'Rina W.' })).status).toBe(200);
  });

  it('gives a juror only the entities their role may use, and follows the descriptor roles', async () => {
    const meta = await juror.get('/api/meta/entities');
    expect(meta.status).toBe(200);
    // Only the fixture ledger grants jurors anything (delete).
    expect(meta.body.data.map((e: any) => e.name)).toEqual(['fixture_ledger']);
    expect(meta.body.data[0].permissions).toEqual({ list: false, read: false, create: false, update: false, delete: true });
    // The descriptor lets a juror delete a ledger row: past the role check, to the not-found answer.
    const res = await juror.delete('/api/fixture-ledgers/999999');
    expect(res.status).toBe(404);
    const adminMeta = await admin.get('/api/meta/entities');
    expect(adminMeta.body.data.length).toBeGreaterThan(5);
    expect((await admin.delete('/api/fixture-ledgers/999999')).status).toBe(403);
  });

  it("answers a juror's first-list and first-screen requests for an admin list with no list (204), an admin's with the page", async () => {
    expect((await juror.get('/api/meta/first-list?path=%2Fmanage-contest')).status).toBe(204);
    expect((await juror.get('/api/meta/first-screen?path=%2Fmanage-contest')).status).toBe(204);
    const page = await admin.get('/api/meta/first-list?path=%2Fmanage-contest');
    expect(page.status).toBe(200);
    expect(page.headers['x-list-url']).toMatch(/^\/api\/contests\?page=1&/);
  });

  it('refuses an unknown role, a jury link of an admin and a jury record that does not exist', async () => {
    const base = { name: 'Someone New', password: 'someone-long-passphrase' };
    const badRole = await admin.post('/api/auth/register', { ...base, email: 'a@example.com', role: 'owner' });
    expect(badRole.status).toBe(422);
    expect(badRole.body.errors[0]).toMatchObject({ path: 'role', messageKey: 'validation.role.invalid' });
    const adminLinked = await admin.post('/api/auth/register', { ...base, email: 'b@example.com', role: 'admin', jury_id: juryId });
    expect(adminLinked.status).toBe(422);
    expect(adminLinked.body.errors[0]).toMatchObject({ path: 'jury_id', messageKey: 'validation.juryId.jurorOnly' });
    const missing = await admin.post('/api/auth/register', { ...base, email: 'c@example.com', role: 'juror', jury_id: 987654 });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ path: 'jury_id', messageKey: 'validation.juryId.unknown' });
    const plain = await admin.post('/api/auth/register', { ...base, email: 'd@example.com' });
    expect(plain.status).toBe(201);
    expect(plain.body.data).toMatchObject({ role: 'admin', juryId: null });
  });

  // The jury record is looked up inside the update's transaction: on PGlite (one connection) the
  // lookup once went to the pool and waited for the transaction that waited for it, for ever.
  it('links an account to a jury record on update, and refuses a record that does not exist', async () => {
    const within = <T>(promise: Promise<T>) =>
      Promise.race([promise, new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('no answer within 20 s')), 20_000).unref())]);
    const invited = await admin.post('/api/accounts', { name: 'Dewi Lestari', email: 'dewi.link@example.com', role: 'admin' });
    expect(invited.status).toBe(201);
    const id = invited.body.data.id;
    // Rina's record has her account already: one account per juror.
    const taken = await within(admin.put(`/api/accounts/${id}`, { role: 'juror', jury_id: juryId }));
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0]).toMatchObject({ path: 'jury_id', messageKey: 'accounts.errors.alreadyLinked' });
    const dewi = (await admin.post('/api/juries', { name: 'Dewi Lestari', email: 'dewi.juror@example.com', round: 1, is_active: true })).body.data.id;
    const linked = await within(admin.put(`/api/accounts/${id}`, { role: 'juror', jury_id: dewi }));
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({ role: 'juror', jury_id: dewi });
    const missing = await within(admin.put(`/api/accounts/${id}`, { jury_id: 987654 }));
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ path: 'jury_id', messageKey: 'validation.juryId.unknown' });
    expect((await within(admin.get('/api/health'))).status).toBe(200);
  }, 60_000);
});
