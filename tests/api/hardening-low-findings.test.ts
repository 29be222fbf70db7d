import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP_PERIOD, totpCode } from '../../src/server/auth/totp.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

// Issue 29, finding 8 (the low ones of this pass): a deeply nested body on the unauthenticated
// sign-in, the unthrottled codes of /api/auth/2fa/disable, a challenge token used twice, six audit
// rows for six concurrent exam reopens, a deleted juror's account still pointing at it, and
// X-Frame-Options beside CSP frame-ancestors.

describe.each(testDatabaseKinds())('hardening, low findings, on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const EMAIL = 'totp.low@example.com';
  const PASSWORD = 'totp-low-password';
  let secret = '';
  let recovery: string[] = [];

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind, { DEMO_DATA: 'true' }));
    expect((await admin.post('/api/auth/register', { name: 'Totp Low', email: EMAIL, password: PASSWORD, role: 'admin' })).status).toBe(201);
    const user = await new TestClient(t.app).init();
    await user.signIn(EMAIL, PASSWORD);
    secret = (await user.post('/api/auth/2fa/setup')).body.data.secret;
    const enabled = await user.post('/api/auth/2fa/enable', { code: totpCode(secret, Date.now() - TOTP_PERIOD * 1000) });
    expect(enabled.status).toBe(200);
    recovery = enabled.body.data.recoveryCodes;
  }, 180_000);
  afterAll(async () => t?.close());

  const fresh = () => new TestClient(t.app).init();
  const challenge = async () => (await (await fresh()).post('/api/login', { email: EMAIL, password: PASSWORD })).body.challengeToken as string;

  it('answers 16 KB of nested [ on the unauthenticated sign-in with a coded 400, before any recursive walk', async () => {
    const c = await fresh();
    const deep = await c.request('POST', '/api/login', undefined, { 'content-type': 'application/json' });
    expect(deep.status).toBe(400); // an empty body
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: '['.repeat(16 * 1024),
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${c.xsrf}`, 'x-xsrf-token': c.xsrf },
    });
    expect(res.statusCode).toBe(400);
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ code: 'BAD_REQUEST', errors: [{ keyword: 'depth', messageKey: 'validation.body.tooDeep' }] });
    // Objects too, and brackets inside strings do not count.
    const objects = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    const xsrf = { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${c.xsrf}`, 'x-xsrf-token': c.xsrf };
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: objects, headers: xsrf })).statusCode).toBe(400);
    const wrong = await c.post('/api/login', { email: 'nobody@example.com', password: `${'['.repeat(200)}x` });
    expect(wrong.status).toBe(401);
    // A body of ordinary depth still reaches validation.
    const nested = await c.post('/api/login', { email: [[[['x']]]], password: 'y' });
    expect(nested.status).toBe(422);
  });

  it('opens one session per challenge token: a second use, even at once, is refused', async () => {
    const token = await challenge();
    const [a, b] = await Promise.all([
      (await fresh()).post('/api/auth/login/2fa', { challengeToken: token, code: recovery[0] }),
      (await fresh()).post('/api/auth/login/2fa', { challengeToken: token, code: recovery[1] }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const before = await sql<{ n: number }>`select count(*)::int as n from recovery_codes where used_at is not null`.execute(t.app.db);
    const again = await (await fresh()).post('/api/auth/login/2fa', { challengeToken: token, code: recovery[2] });
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatchObject({ path: 'challengeToken', messageKey: 'pages.twoFactor.challengeExpired' });
    // A token already used is refused before its code is looked at: the code stays unused.
    const after = await sql<{ n: number }>`select count(*)::int as n from recovery_codes where used_at is not null`.execute(t.app.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('throttles wrong codes when turning two-factor off, like the sign-in code step', async () => {
    await sql`delete from throttles where key like 'code:%'`.execute(t.app.db);
    const me = await fresh();
    me.token = (await me.post('/api/auth/login/2fa', { challengeToken: await challenge(), code: recovery[3] })).body.token;
    const wrong = () => me.post('/api/auth/2fa/disable', { password: PASSWORD, code: '111111' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422]);
    // Past the free attempts the next ones wait (429), where they used to be checked without end.
    const next = await Promise.all([wrong(), wrong(), wrong()]);
    expect(next.map((answer) => answer.status)).toContain(429);
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from users where email = ${EMAIL} and totp_enabled_at is not null`.execute(t.app.db)).rows[0]!.n,
    ).toBe(1);
    await sql`delete from throttles where key like 'code:%'`.execute(t.app.db);
  });

  it('audits one reopen when six arrive at once; the others are refused', async () => {
    // The demo data's second exam (a Round 2, as the results suite finalises).
    const exam = (await t.app.db
      .selectFrom('exams' as never)
      .select(['id' as never])
      .orderBy('id' as never)
      .offset(1)
      .limit(1)
      .executeTakeFirstOrThrow()) as { id: number };
    expect((await admin.post(`/api/exams/${exam.id}/status`, { status: 'closed' })).status).toBe(200);
    expect((await admin.post(`/api/exams/${exam.id}/finalise`)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 6 }, () => admin.post(`/api/exams/${exam.id}/reopen`, { reason: 'Six at once' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const rows = await sql<{ n: number }>`select count(*)::int as n from audit_log where action = 'results.reopen' and entity_id = ${String(exam.id)}`.execute(
      t.app.db,
    );
    expect(rows.rows[0]!.n).toBe(1);
  });

  it("unlinks a deleted juror's account (no dangling users.jury_id) and links it again when the juror is restored", async () => {
    const jury = await admin.post('/api/juries', { name: 'Dangling Juror', email: 'dangling.juror@jury.example', round: 1, is_active: true });
    expect(jury.status).toBe(201);
    const id = jury.body.data.id as number;
    expect((await admin.post(`/api/juries/${id}/account`)).status).toBeLessThan(300);
    const account = () =>
      t.app.db
        .selectFrom('users')
        .select(['id', 'jury_id' as never])
        .where('email', '=', 'dangling.juror@jury.example')
        .executeTakeFirstOrThrow();
    expect(await account()).toMatchObject({ jury_id: id });
    expect((await admin.delete(`/api/juries/${id}`)).status).toBe(204);
    expect(await account()).toMatchObject({ jury_id: null });
    const dangling = await sql<{
      n: number;
    }>`select count(*)::int as n from users u where u.jury_id is not null and not exists (select 1 from juries j where j.id = u.jury_id)`.execute(t.app.db);
    expect(dangling.rows[0]!.n).toBe(0);
    expect((await admin.post(`/api/juries/${id}/restore`)).status).toBe(200);
    expect(await account()).toMatchObject({ jury_id: id });
  });

  it('forbids framing with CSP frame-ancestors alone (no X-Frame-Options beside it)', async () => {
    for (const url of ['/api/health', '/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
  });
});
