import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MailMessage, renderedMail } from '../../src/server/auth/mailer.js';
import { TOTP_PERIOD, totpCode } from '../../src/server/auth/totp.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, startSignedInApp, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const PASSWORD = 'lantern-orchid-meadow';

describe.each(testDatabaseKinds())('accounts on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let outbox: MailMessage[];

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind, { PUBLIC_URL: 'https://awards.example.org' }));
    outbox = [];
    vi.spyOn(t.app.mailer, 'send').mockImplementation(async (message) => void outbox.push(renderedMail(message)));
  });
  afterAll(async () => t?.close());

  const client = () => new TestClient(t.app).init();
  const linkTokenFor = (email: string) => {
    const mail = outbox.filter((m) => m.to === email).at(-1)!;
    return new URL(/https:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!;
  };
  /** Invites an account and sets its password through the mailed link; returns its id. */
  /** A juror record with this e-mail: a juror account is always linked to one. */
  const jurorRecord = async (email: string) =>
    expect((await admin.post('/api/juries', { name: `Juror ${email.split('@')[0]}`, email, round: 1, is_active: true })).status).toBe(201);
  async function activated(email: string, role: 'admin' | 'juror' = 'admin'): Promise<number> {
    if (role === 'juror') await jurorRecord(email);
    const res = await admin.post('/api/accounts', { name: `Person ${email.split('@')[0]}`, email, role });
    expect(res.status).toBe(201);
    expect((await (await client()).post('/api/auth/reset-password', { token: linkTokenFor(email), password: PASSWORD })).status).toBe(204);
    return res.body.data.id;
  }

  it('invites with a 72 h single-use link: the account cannot sign in until it sets its password', async () => {
    await jurorRecord('siti@example.com');
    const res = await admin.post('/api/accounts', { name: 'Siti Nurhaliza', email: 'Siti@Example.com', role: 'juror' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email: 'siti@example.com', role: 'juror', status: 'invited', two_factor: false });
    const mail = outbox.find((m) => m.to === 'siti@example.com')!;
    expect(mail.subject).toBe('You are invited to Awards CMS');
    expect(mail.text).toContain('https://awards.example.org/set-password?token=');
    expect(mail.text).toContain('72 hours');
    const token = linkTokenFor('siti@example.com');
    const row = await t.app.db
      .selectFrom('password_resets')
      .select(['purpose', sql<number>`extract(epoch from expires_at - created_at)::int`.as('ttl')])
      .where('user_id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ purpose: 'invite' });
    expect(Math.abs(Number(row.ttl) - 72 * 3600)).toBeLessThan(5);

    const anon = await client();
    expect((await anon.post('/api/login', { email: 'siti@example.com', password: PASSWORD })).status).toBe(401);
    const weak = await anon.post('/api/auth/reset-password', { token, password: 'password123' });
    expect(weak.status).toBe(422);
    expect(weak.body.errors[0]).toMatchObject({ path: 'password', messageKey: 'validation.adminPassword.common' });
    const sameAsEmail = await anon.post('/api/auth/reset-password', { token, password: 'siti@example.com' });
    expect(sameAsEmail.body.errors[0]).toMatchObject({ messageKey: 'validation.adminPassword.email' });
    // A refused password leaves the link working; a good one uses it up.
    expect((await anon.post('/api/auth/reset-password', { token, password: PASSWORD })).status).toBe(204);
    expect((await anon.post('/api/auth/reset-password', { token, password: 'another-lantern-meadow' })).status).toBe(400);
    const login = await anon.post('/api/login', { email: 'siti@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.data.role).toBe('juror');
    const listed = (await admin.get('/api/accounts')).body.data.find((a: any) => a.email === 'siti@example.com');
    expect(listed).toMatchObject({ status: 'active', role: 'juror' });
    expect(listed.last_login_at).toBeTruthy();
  });

  it('refuses an expired invitation and replaces the link on resend', async () => {
    const res = await admin.post('/api/accounts', { name: 'Ahmad Faiz', email: 'faiz@example.com', role: 'admin' });
    const first = linkTokenFor('faiz@example.com');
    await sql`update password_resets set expires_at = now() - interval '1 second' where user_id = ${res.body.data.id}`.execute(t.app.db);
    const anon = await client();
    expect((await anon.post('/api/auth/reset-password', { token: first, password: PASSWORD })).status).toBe(400);
    expect((await admin.post(`/api/accounts/${res.body.data.id}/resend`)).status).toBe(200);
    const second = linkTokenFor('faiz@example.com');
    expect(second).not.toBe(first);
    expect((await anon.post('/api/auth/reset-password', { token: second, password: PASSWORD })).status).toBe(204);
    expect((await admin.post(`/api/accounts/${res.body.data.id}/resend`)).status).toBe(409);
  });

  it('ends every session of a disabled account at once and lets an enabled one sign in again', async () => {
    const id = await activated('juror.disable@example.com', 'juror');
    const juror = await client();
    await juror.signIn('juror.disable@example.com', PASSWORD);
    expect((await juror.get('/api/auth/me')).status).toBe(200);
    const res = await admin.post(`/api/accounts/${id}/disable`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('disabled');
    const next = await juror.get('/api/auth/me');
    expect(next.status).toBe(401);
    expect((await (await client()).post('/api/login', { email: 'juror.disable@example.com', password: PASSWORD })).status).toBe(401);
    const history = await admin.get(`/api/accounts/${id}/sessions`);
    expect(history.body.data[0]).toMatchObject({ ended: 'disabled', ip: expect.any(String) });
    expect((await admin.post(`/api/accounts/${id}/enable`)).body.data.status).toBe('active');
    await (await client()).signIn('juror.disable@example.com', PASSWORD);
    const audit = await t.app.db.selectFrom('audit_log').select('action').where('action', 'like', 'accounts.%').execute();
    expect(new Set(audit.map((a) => a.action))).toEqual(
      new Set(['accounts.invite', 'accounts.invite_accepted', 'accounts.invite_resent', 'accounts.disable', 'accounts.enable']),
    );
  });

  it('keeps an active admin: no disabling or demoting oneself, nor the last active admin', async () => {
    const me = (await admin.get('/api/auth/me')).body.data;
    const self = await admin.post(`/api/accounts/${me.id}/disable`);
    expect(self.status).toBe(409);
    expect(self.body.errors[0].messageKey).toBe('pages.accounts.errors.disableSelf');
    expect((await admin.put(`/api/accounts/${me.id}`, { role: 'juror' })).body.errors[0].messageKey).toBe('pages.accounts.errors.demoteSelf');
    // Leave two active admins, then let each disable the other at the same moment: one must stay.
    const others = (await admin.get('/api/accounts')).body.data.filter((a: any) => a.role === 'admin' && a.email !== ADMIN_EMAIL && a.status === 'active');
    for (const other of others) expect((await admin.post(`/api/accounts/${other.id}/disable`)).status).toBe(200);
    const secondId = await activated('second.admin@example.com');
    const second = await client();
    await second.signIn('second.admin@example.com', PASSWORD);
    const answers = await Promise.all([admin.post(`/api/accounts/${secondId}/disable`), second.post(`/api/accounts/${me.id}/disable`)]);
    // The loser is refused: by the last-admin rule (409), or, when the winner's commit came first,
    // because its own session has just ended (401).
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const loser = answers.find((a) => a.status !== 200)!;
    if (loser.status === 409) expect(loser.body.errors[0].messageKey).toBe('pages.accounts.errors.lastAdmin');
    else expect(loser.status).toBe(401);
    const active = (await t.app.db.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled_at', 'is', null).execute()).length;
    expect(active).toBe(1);
    // Put things back: the first admin active and signed in, the second demoted (its session ends).
    await t.app.db.updateTable('users').set({ disabled_at: null }).execute();
    admin = await client();
    await admin.signIn();
    await second.signIn('second.admin@example.com', PASSWORD);
    await jurorRecord('second.admin@example.com');
    expect((await admin.put(`/api/accounts/${secondId}`, { role: 'juror' })).status).toBe(200);
    expect((await second.get('/api/auth/me')).status).toBe(401);
  });

  describe('two-factor', () => {
    let user: TestClient;
    let secret: string;
    const email = 'totp.admin@example.com';
    const signInPassword = async () => (await client()).post('/api/login', { email, password: PASSWORD });

    beforeAll(async () => {
      await activated(email);
      user = await client();
      await user.signIn(email, PASSWORD);
    });

    it('enrols with a QR code and one code, and gives ten single-use recovery codes once', async () => {
      const setup = await user.post('/api/auth/2fa/setup');
      expect(setup.status).toBe(200);
      secret = setup.body.data.secret;
      expect(setup.body.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
      expect(setup.body.data.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
      const stored = await t.app.db.selectFrom('users').select('totp_secret').where('email', '=', email).executeTakeFirstOrThrow();
      expect(stored.totp_secret).not.toContain(secret);
      expect((await user.post('/api/auth/2fa/enable', { code: '000000' })).status).toBe(422);
      // The step before the current one: the enrolment code is then that step.
      const enabled = await user.post('/api/auth/2fa/enable', { code: totpCode(secret, Date.now() - TOTP_PERIOD * 1000) });
      expect(enabled.status).toBe(200);
      expect(enabled.body.data.recoveryCodes).toHaveLength(10);
      expect((await user.get('/api/auth/2fa')).body.data).toEqual({ enabled: true, recoveryCodesLeft: 10 });
      (globalThis as any).recovery = enabled.body.data.recoveryCodes;
    });

    it('asks for a code after the password with a challenge token that is no access token', async () => {
      const first = await signInPassword();
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ twoFactor: 'verify', expiresIn: 300 });
      expect(first.body.token).toBeUndefined();
      const challenge = first.body.challengeToken;
      const asAccess = await (await client()).get('/api/auth/me', { authorization: `Bearer ${challenge}`, 'x-access-token': challenge });
      expect(asAccess.status).toBe(401);
      expect((await (await client()).post('/api/auth/refresh', { refreshToken: challenge })).status).toBe(401);
      // Enrolment used the previous step: the current one works, then not again.
      const current = totpCode(secret);
      const now = await (await client()).post('/api/auth/login/2fa', { challengeToken: challenge, code: current });
      expect(now.status).toBe(200);
      expect(now.body.data.twoFactor).toBe(true);
      // A challenge opens one session: each further attempt signs in with the password again.
      const again = await (await client()).post('/api/auth/login/2fa', {
        challengeToken: (await signInPassword()).body.challengeToken,
        code: current,
      });
      expect(again.status).toBe(422);
      expect(again.body.errors[0]).toMatchObject({ path: 'code', messageKey: 'validation.twoFactor.invalidCode' });
      // The next step is accepted (a clock a little ahead); after it, an older step is refused.
      const next = await (await client()).post('/api/auth/login/2fa', {
        challengeToken: (await signInPassword()).body.challengeToken,
        code: totpCode(secret, Date.now() + TOTP_PERIOD * 1000),
      });
      expect(next.status).toBe(200);
      const old = await (await client()).post('/api/auth/login/2fa', {
        challengeToken: (await signInPassword()).body.challengeToken,
        code: totpCode(secret, Date.now() - TOTP_PERIOD * 1000),
      });
      expect(old.status).toBe(422);
      const tooOld = await (await client()).post('/api/auth/login/2fa', {
        challengeToken: (await signInPassword()).body.challengeToken,
        code: totpCode(secret, Date.now() - 3 * TOTP_PERIOD * 1000),
      });
      expect(tooOld.status).toBe(422);
    });

    it('accepts each recovery code once', async () => {
      const codes: string[] = (globalThis as any).recovery;
      const challenge = (await signInPassword()).body.challengeToken;
      const used = await (await client()).post('/api/auth/login/2fa', { challengeToken: challenge, code: codes[0]!.toUpperCase() });
      expect(used.status).toBe(200);
      const reused = await (await client()).post('/api/auth/login/2fa', { challengeToken: (await signInPassword()).body.challengeToken, code: codes[0] });
      expect(reused.status).toBe(422);
      const me = await client();
      me.token = used.body.token;
      expect((await me.get('/api/auth/2fa')).body.data.recoveryCodesLeft).toBe(9);
    });

    it('throttles codes like the password', async () => {
      await sql`delete from throttles where key like 'code:%'`.execute(t.app.db);
      const challenge = (await signInPassword()).body.challengeToken;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        statuses.push((await (await client()).post('/api/auth/login/2fa', { challengeToken: challenge, code: '111111' })).status);
      }
      expect(statuses.slice(0, 5).every((s) => s === 422)).toBe(true);
      expect(statuses[5]).toBe(429);
      await sql`delete from throttles where key like 'code:%'`.execute(t.app.db);
    });

    it('turns off with the password and a code', async () => {
      const me = await client();
      const challenge = (await signInPassword()).body.challengeToken;
      const codes: string[] = (globalThis as any).recovery;
      me.token = (await me.post('/api/auth/login/2fa', { challengeToken: challenge, code: codes[1] })).body.token;
      expect((await me.post('/api/auth/2fa/disable', { password: 'wrong-password-here', code: codes[2] })).status).toBe(422);
      expect((await me.post('/api/auth/2fa/disable', { password: PASSWORD, code: codes[2] })).status).toBe(204);
      const plain = await signInPassword();
      expect(plain.body.token).toBeTruthy();
      expect(await t.app.db.selectFrom('recovery_codes').selectAll().execute()).toHaveLength(0);
    });
  });
});

describe.each(testDatabaseKinds())('REQUIRE_2FA_FOR_ADMINS on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { REQUIRE_2FA_FOR_ADMINS: 'true' });
  });
  afterAll(async () => t?.close());

  it('makes an admin without two-factor enrol before the session opens', async () => {
    const c = await new TestClient(t.app).init();
    const first = await c.post('/api/login', { email: ADMIN_EMAIL, password: 'correct-horse-battery' });
    expect(first.body).toMatchObject({ twoFactor: 'enrol' });
    expect((await c.post('/api/auth/login/2fa', { challengeToken: first.body.challengeToken, code: '123456' })).status).toBe(400);
    const setup = await c.post('/api/auth/login/2fa/setup', { challengeToken: first.body.challengeToken });
    expect(setup.status).toBe(200);
    const done = await c.post('/api/auth/login/2fa/enable', { challengeToken: first.body.challengeToken, code: totpCode(setup.body.data.secret) });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    c.token = done.body.token;
    expect((await c.get('/api/auth/me')).body.data.twoFactor).toBe(true);
    const next = await c.post('/api/login', { email: ADMIN_EMAIL, password: 'correct-horse-battery' });
    expect(next.body.twoFactor).toBe('verify');
  });
});
