import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/password.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('sign-in on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  const client = () => new TestClient(t.app).init();

  it('creates the first admin and notes how to sign in', () => {
    expect(t.app.startupNotes.join('\n')).toContain(`sign in as ${ADMIN_EMAIL} with the password from ADMIN_PASSWORD`);
  });

  it.each(['/api/login', '/api/auth/login'])('signs in through %s with a token, refresh token and the admin', async (url) => {
    const c = await client();
    const res = await c.post(url, { email: ` ${ADMIN_EMAIL.toUpperCase()} `, password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ expiresIn: 3600, data: { email: ADMIN_EMAIL, role: 'admin', name: 'Administrator' } });
    expect(res.body.token.split('.')).toHaveLength(3);
    expect(typeof res.body.refreshToken).toBe('string');
    expect(typeof res.body.data.id).toBe('string');
    expect(res.body.data).not.toHaveProperty('password_hash');
  });

  it('reports the previous sign-in time as lastLoginTimestamp', async () => {
    const c = await client();
    const first = await c.signIn();
    const second = await c.signIn();
    expect(second.data.lastLoginTimestamp).not.toBeNull();
    expect(new Date(second.data.lastLoginTimestamp!).getTime()).toBeGreaterThanOrEqual(
      first.data.lastLoginTimestamp ? new Date(first.data.lastLoginTimestamp).getTime() : 0,
    );
    const me = await c.get('/api/auth/me');
    expect(me.body.data.lastLoginTimestamp).toBe(second.data.lastLoginTimestamp);
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const c = await client();
    const wrong = await c.post('/api/login', { email: ADMIN_EMAIL, password: 'not-the-password' });
    const unknown = await c.post('/api/login', { email: 'nobody@example.com', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'Invalid email or password.' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers a disabled admin with the same 401 as a wrong password', async () => {
    const c = await client();
    await c.signIn();
    await c.post('/api/auth/register', { name: 'Fajar', email: 'fajar@example.com', password: 'fajar-password' });
    await t.app.db.updateTable('users').set({ disabled_at: new Date() }).where('email', '=', 'fajar@example.com').execute();
    const res = await c.post('/api/login', { email: 'fajar@example.com', password: 'fajar-password' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'Invalid email or password.' });
  });

  it('rehashes a password stored at a weaker cost on sign-in', async () => {
    const c = await client();
    await c.signIn();
    await c.post('/api/auth/register', { name: 'Gita', email: 'gita@example.com', password: 'gita-password' });
    const weak = await hashPassword('gita-password', { N: 2 ** 12, r: 8, p: 1 });
    await t.app.db.updateTable('users').set({ password_hash: weak }).where('email', '=', 'gita@example.com').execute();
    await c.signIn('gita@example.com', 'gita-password');
    const row = await t.app.db.selectFrom('users').select('password_hash').where('email', '=', 'gita@example.com').executeTakeFirstOrThrow();
    expect(row.password_hash).not.toBe(weak);
    expect(row.password_hash!.startsWith(`scrypt$${2 ** 17}$8$1$`)).toBe(true);
    await c.signIn('gita@example.com', 'gita-password');
  });

  it('answers missing fields with 422 and an error for each field', async () => {
    const c = await client();
    const res = await c.post('/api/login', {});
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION');
    const byPath = Object.fromEntries(res.body.errors.map((e: any) => [e.path, e.messageKey]));
    expect(byPath).toEqual({ email: 'validation.email.required', password: 'validation.password.required' });
  });

  it('answers a malformed e-mail and unknown body fields with 422', async () => {
    const c = await client();
    const bad = await c.post('/api/login', { email: 'not-an-email', password: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'email', messageKey: 'validation.email.invalid' })]);
    const junk = await c.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, junk: 1 });
    expect(junk.status).toBe(422);
    expect(junk.body.errors[0].path).toBe('junk');
  });

  it('refuses a sign-in without the XSRF header with 403', async () => {
    const c = await client();
    const res = await c.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { 'x-xsrf-token': '' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
});
