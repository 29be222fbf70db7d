import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MailMessage, renderedMail } from '../../src/server/auth/mailer.js';
import { signAccessToken } from '../../src/server/auth/tokens.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('account routes on %s', (kind) => {
  let t: TestApp;
  let outbox: MailMessage[];

  beforeAll(async () => {
    t = await startTestApp(kind, { PUBLIC_URL: 'https://awards.example.org' });
    outbox = [];
    vi.spyOn(t.app.mailer, 'send').mockImplementation(async (message) => void outbox.push(renderedMail(message)));
  });
  afterAll(async () => t?.close());

  const client = () => new TestClient(t.app).init();
  async function admin(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
    const c = await client();
    await c.signIn(email, password);
    return c;
  }
  const paths = (res: { body: any }) => res.body.errors.map((e: any) => e.path).sort();
  const tokenFromMail = (message: MailMessage) => new URL(/https:\/\/\S+/.exec(message.text)![0]).searchParams.get('token')!;

  describe('GET /api/auth/me and /api/auth/check', () => {
    it('returns the signed-in admin with default preferences', async () => {
      const c = await admin();
      for (const url of ['/api/auth/me', '/api/auth/check']) {
        const res = await c.get(url);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({
          email: ADMIN_EMAIL,
          role: 'admin',
          avatarUrl: null,
          preferences: { theme: 'light', language: 'en', notifications: true },
        });
      }
    });

    it('answers 401 when not signed in', async () => {
      const c = await client();
      expect((await c.get('/api/auth/check')).status).toBe(401);
      expect((await c.get('/api/auth/me')).status).toBe(401);
    });
  });

  describe('PUT /api/auth/me', () => {
    it('updates name, avatar and preferences, merging preferences', async () => {
      const c = await admin();
      const res = await c.put('/api/auth/me', {
        name: '  Ayu Lestari ',
        avatarUrl: 'https://cdn.example.org/ayu.png',
        preferences: { theme: 'dark', language: 'id' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: 'Ayu Lestari',
        avatarUrl: 'https://cdn.example.org/ayu.png',
        preferences: { theme: 'dark', language: 'id', notifications: true },
      });
      const again = await c.put('/api/auth/me', { preferences: { notifications: false }, avatarUrl: null });
      expect(again.body.data.preferences).toEqual({ theme: 'dark', language: 'id', notifications: false });
      expect(again.body.data.avatarUrl).toBeNull();
      expect((await c.get('/api/auth/me')).body.data.name).toBe('Ayu Lestari');
    });

    it('rejects bad values with 422 naming each field', async () => {
      const c = await admin();
      const res = await c.put('/api/auth/me', {
        name: 'A',
        avatarUrl: 'javascript:alert(1)',
        preferences: { theme: 'blue', language: 'fr', notifications: 'maybe' },
        role: 'superuser',
      });
      expect(res.status).toBe(422);
      expect(paths(res)).toEqual(['avatarUrl', 'name', 'preferences.language', 'preferences.notifications', 'preferences.theme', 'role']);
      expect(res.body.errors.find((e: any) => e.path === 'avatarUrl').messageKey).toBe('validation.avatarUrl.invalid');
      expect(res.body.errors.find((e: any) => e.path === 'name').messageKey).toBe('validation.name.min');
    });

    it('changes the e-mail only with the right current password', async () => {
      const c = await admin();
      const missing = await c.put('/api/auth/me', { email: 'renamed@example.com' });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'currentPassword', messageKey: 'validation.currentPassword.required' })]);
      const wrong = await c.put('/api/auth/me', { email: 'renamed@example.com', currentPassword: 'wrong-password' });
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors).toEqual([expect.objectContaining({ path: 'currentPassword', messageKey: 'validation.currentPassword.invalid' })]);
      const ok = await c.put('/api/auth/me', { email: 'Renamed@Example.com', currentPassword: ADMIN_PASSWORD });
      expect(ok.status).toBe(200);
      expect(ok.body.data.email).toBe('renamed@example.com');
      const back = await c.put('/api/auth/me', { email: ADMIN_EMAIL, currentPassword: ADMIN_PASSWORD });
      expect(back.body.data.email).toBe(ADMIN_EMAIL);
    });
  });

  describe('POST /api/auth/register', () => {
    it('lets an admin create another admin, who can sign in', async () => {
      const c = await admin();
      const res = await c.post('/api/auth/register', { name: 'Budi Santoso', email: 'Budi@Example.com', password: 'budi-password-1' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ name: 'Budi Santoso', email: 'budi@example.com', role: 'admin' });
      const budi = await client();
      expect((await budi.signIn('budi@example.com', 'budi-password-1')).data.name).toBe('Budi Santoso');
    });

    it('answers a taken e-mail with 409 on the email field', async () => {
      const c = await admin();
      const res = await c.post('/api/auth/register', { name: 'Again', email: ADMIN_EMAIL.toUpperCase(), password: 'another-pass-1' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('CONFLICT');
      expect(res.body.errors[0].path).toBe('email');
    });

    it('validates name, e-mail and password length with 422', async () => {
      const c = await admin();
      const res = await c.post('/api/auth/register', { name: 'X', email: 'nope', password: 'short' });
      expect(res.status).toBe(422);
      expect(paths(res)).toEqual(['email', 'name', 'password']);
      expect(res.body.errors.find((e: any) => e.path === 'password')).toMatchObject({ messageKey: 'validation.adminPassword.min', params: { limit: 10 } });
      const long = await c.post('/api/auth/register', { name: 'Long', email: 'long@example.com', password: 'x'.repeat(129) });
      expect(long.body.errors[0]).toMatchObject({ path: 'password', messageKey: 'validation.adminPassword.max' });
      const missing = await c.post('/api/auth/register', {});
      expect(paths(missing)).toEqual(['email', 'name', 'password']);
    });

    it('is refused without signing in', async () => {
      const c = await client();
      const res = await c.post('/api/auth/register', { name: 'Eve', email: 'eve@example.com', password: 'eve-password' });
      expect(res.status).toBe(401);
    });
  });

  describe('POST /api/auth/change-password', () => {
    it('checks the current password, keeps this session and ends the others', async () => {
      const c = await admin();
      await c.post('/api/auth/register', { name: 'Citra', email: 'citra@example.com', password: 'citra-password' });
      const citra = await admin('citra@example.com', 'citra-password');

      const wrong = await citra.post('/api/auth/change-password', { currentPassword: 'nope-nope', newPassword: 'new-citra-pass' });
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors[0].path).toBe('currentPassword');
      const short = await citra.post('/api/auth/change-password', { currentPassword: 'citra-password', newPassword: 'short' });
      expect(short.status).toBe(422);
      expect(short.body.errors[0].path).toBe('newPassword');

      const claims = JSON.parse(Buffer.from(citra.token.split('.')[1]!, 'base64url').toString());
      // A second live session of citra's (another device), made behind the one-session rule's back.
      await sql`insert into sessions (id, user_id, refreshed_at, idle_expires_at, absolute_expires_at)
        values ('otherdevicesession01', ${Number(claims.sub)}, now(), now() + interval '1 hour', now() + interval '1 hour')`.execute(t.app.db);
      const otherDevice = {
        authorization: `Bearer ${await signAccessToken(t.app.jwtSecret, { userId: Number(claims.sub), sid: 'otherdevicesession01', email: claims.email, name: claims.name, role: 'admin' })}`,
      };
      expect((await citra.get('/api/auth/me', otherDevice)).status).toBe(200);

      const ok = await citra.post('/api/auth/change-password', { currentPassword: 'citra-password', newPassword: 'new-citra-pass' });
      expect(ok.status).toBe(204);
      expect((await citra.get('/api/auth/me')).status).toBe(200);
      expect((await citra.get('/api/auth/me', otherDevice)).status).toBe(401);
      const other = await t.app.db.selectFrom('sessions').select('revoked_reason').where('id', '=', 'otherdevicesession01').executeTakeFirstOrThrow();
      expect(other.revoked_reason).toBe('password_changed');

      const old = await (await client()).post('/api/login', { email: 'citra@example.com', password: 'citra-password' });
      expect(old.status).toBe(401);
      await (await client()).signIn('citra@example.com', 'new-citra-pass');
    });
  });

  describe('forgot and reset password', () => {
    it('answers 202 for an unknown e-mail and sends nothing', async () => {
      const c = await client();
      const before = outbox.length;
      const res = await c.post('/api/auth/forgot-password', { email: 'ghost@example.com' });
      expect(res.status).toBe(202);
      expect(outbox.length).toBe(before);
    });

    it('mails a single-use link that sets a new password and ends every session', async () => {
      const c = await admin();
      await c.post('/api/auth/register', { name: 'Dewi', email: 'dewi@example.com', password: 'dewi-password' });
      const dewi = await admin('dewi@example.com', 'dewi-password');

      const res = await (await client()).post('/api/auth/forgot-password', { email: ' DEWI@example.com' });
      expect(res.status).toBe(202);
      expect(res.body).toBeFalsy();
      await vi.waitFor(() => expect(outbox.some((m) => m.to === 'dewi@example.com')).toBe(true));
      const mail = outbox.find((m) => m.to === 'dewi@example.com')!;
      expect(mail.subject).toBe('Reset your Awards CMS password');
      expect(mail.text).toContain('https://awards.example.org/reset-password?token=');
      const token = tokenFromMail(mail);
      const stored = await t.app.db.selectFrom('password_resets').select('token_hash').execute();
      expect(stored.map((r) => r.token_hash)).not.toContain(token);

      const anon = await client();
      const short = await anon.post('/api/auth/reset-password', { token, password: 'short' });
      expect(short.status).toBe(422);
      expect(short.body.errors[0]).toMatchObject({ path: 'password', messageKey: 'validation.adminPassword.min' });

      expect((await anon.post('/api/auth/reset-password', { token, password: 'dewi-new-password' })).status).toBe(204);
      expect((await dewi.get('/api/auth/me')).status).toBe(401);
      const reused = await anon.post('/api/auth/reset-password', { token, password: 'dewi-third-password' });
      expect(reused.status).toBe(400);
      expect(reused.body.code).toBe('BAD_REQUEST');
      await (await client()).signIn('dewi@example.com', 'dewi-new-password');
    });

    it('refuses an expired or unknown token with 400', async () => {
      const anon = await client();
      expect((await anon.post('/api/auth/reset-password', { token: 'no-such-token', password: 'whatever-pass' })).status).toBe(400);
      await anon.post('/api/auth/forgot-password', { email: ADMIN_EMAIL });
      await vi.waitFor(() => expect(outbox.some((m) => m.to === ADMIN_EMAIL)).toBe(true));
      const token = tokenFromMail(outbox.filter((m) => m.to === ADMIN_EMAIL).at(-1)!);
      await sql`update password_resets set expires_at = now() - interval '1 second' where used_at is null`.execute(t.app.db);
      expect((await anon.post('/api/auth/reset-password', { token, password: 'whatever-pass' })).status).toBe(400);
    });

    it('validates the bodies with 422', async () => {
      const anon = await client();
      const forgot = await anon.post('/api/auth/forgot-password', {});
      expect(forgot.status).toBe(422);
      expect(forgot.body.errors[0]).toMatchObject({ path: 'email', messageKey: 'validation.email.required' });
      const reset = await anon.post('/api/auth/reset-password', {});
      expect(paths(reset)).toEqual(['password', 'token']);
    });
  });

  it('writes audit rows for sign-in, failures, sign-out, password change and reset, and register', async () => {
    const rows = await t.app.db.selectFrom('audit_log').select('action').distinct().execute();
    const actions = rows.map((r) => r.action);
    for (const action of ['auth.login', 'auth.login_failed', 'auth.password_change', 'auth.password_reset', 'auth.register', 'auth.first_admin']) {
      expect(actions).toContain(action);
    }
  });
});
