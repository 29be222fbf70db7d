import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('refresh and sign-out on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function signedIn() {
    const c = await new TestClient(t.app).init();
    const login = await c.signIn();
    return { c, login };
  }
  const sidOf = (refreshToken: string) => refreshToken.split('.')[0]!;
  const sessionRow = (sid: string) => t.app.db.selectFrom('sessions').selectAll().where('id', '=', sid).executeTakeFirstOrThrow();
  // Moves the last rotation back in time, as if the grace window had passed.
  const ageRotation = (sid: string, seconds: number) =>
    sql`update sessions set refreshed_at = now() - make_interval(secs => ${seconds}) where id = ${sid}`.execute(t.app.db);

  it('rotates: a refresh gives a new access token and a new refresh token', async () => {
    const { c, login } = await signedIn();
    const res = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(3600);
    expect(res.body.refreshToken).not.toBe(login.refreshToken);
    expect(res.body.accessToken.split('.')).toHaveLength(3);
    expect((await c.get('/api/auth/me', { authorization: `Bearer ${res.body.accessToken}` })).status).toBe(200);
    const next = await c.post('/api/auth/refresh', { refreshToken: res.body.refreshToken });
    expect(next.status).toBe(200);
    expect((await sessionRow(sidOf(login.refreshToken))).refresh_generation).toBe(2);
  });

  it('gives the current refresh token back to the previous one within the 10 s grace window', async () => {
    const { c, login } = await signedIn();
    const first = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    const racing = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    expect(racing.status).toBe(200);
    expect(racing.body.refreshToken).toBe(first.body.refreshToken);
    expect((await c.get('/api/auth/me', { authorization: `Bearer ${racing.body.accessToken}` })).status).toBe(200);
    // The session lives on: the current token still rotates.
    expect((await c.post('/api/auth/refresh', { refreshToken: first.body.refreshToken })).status).toBe(200);
  });

  it('treats two refreshes of one token at once as one rotation', async () => {
    const { c, login } = await signedIn();
    const [a, b] = await Promise.all([
      c.post('/api/auth/refresh', { refreshToken: login.refreshToken }),
      c.post('/api/auth/refresh', { refreshToken: login.refreshToken }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken);
    expect((await sessionRow(sidOf(login.refreshToken))).refresh_generation).toBe(1);
  });

  it('revokes the whole session when the previous token comes back after the grace window', async () => {
    const { c, login } = await signedIn();
    const first = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    await ageRotation(sidOf(login.refreshToken), 11);
    const reuse = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('UNAUTHENTICATED');
    const row = await sessionRow(sidOf(login.refreshToken));
    expect(row.revoked_reason).toBe('reuse');
    // Every token of the family is dead: the current refresh token and the access tokens.
    expect((await c.post('/api/auth/refresh', { refreshToken: first.body.refreshToken })).status).toBe(401);
    expect((await c.get('/api/auth/me', { authorization: `Bearer ${first.body.accessToken}` })).status).toBe(401);
    expect((await c.get('/api/auth/me')).status).toBe(401);
    const audit = await t.app.db.selectFrom('audit_log').select('action').where('action', '=', 'auth.refresh_reuse').execute();
    expect(audit.length).toBeGreaterThan(0);
  });

  it('revokes the session when a token two generations old comes back, even inside the window', async () => {
    const { c, login } = await signedIn();
    const first = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    await c.post('/api/auth/refresh', { refreshToken: first.body.refreshToken });
    const reuse = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    expect(reuse.status).toBe(401);
    expect((await sessionRow(sidOf(login.refreshToken))).revoked_reason).toBe('reuse');
  });

  it('answers a forged, malformed or access-token refresh with 401', async () => {
    const { c, login } = await signedIn();
    const [sid, gen] = login.refreshToken.split('.');
    expect((await c.post('/api/auth/refresh', { refreshToken: `${sid}.${gen}.forged` })).status).toBe(401);
    expect((await c.post('/api/auth/refresh', { refreshToken: `${sid}.5.${login.refreshToken.split('.')[2]}` })).status).toBe(401);
    expect((await c.post('/api/auth/refresh', { refreshToken: login.token })).status).toBe(401);
    // None of those counted as reuse: the real token still works.
    expect((await c.post('/api/auth/refresh', { refreshToken: login.refreshToken })).status).toBe(200);
  });

  it('answers a missing refresh token with 422', async () => {
    const c = await new TestClient(t.app).init();
    const res = await c.post('/api/auth/refresh', {});
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ path: 'refreshToken', messageKey: 'validation.refreshToken.required' });
  });

  it('refuses to refresh an expired session', async () => {
    const { c, login } = await signedIn();
    await sql`update sessions set idle_expires_at = now() - interval '1 second' where id = ${sidOf(login.refreshToken)}`.execute(t.app.db);
    expect((await c.post('/api/auth/refresh', { refreshToken: login.refreshToken })).status).toBe(401);
    const again = await signedIn();
    await sql`update sessions set absolute_expires_at = now() - interval '1 second' where id = ${sidOf(again.login.refreshToken)}`.execute(t.app.db);
    expect((await again.c.post('/api/auth/refresh', { refreshToken: again.login.refreshToken })).status).toBe(401);
  });

  it('answers a replaced session refresh with 401 SESSION_REPLACED', async () => {
    const { c, login } = await signedIn();
    await signedIn();
    const res = await c.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SESSION_REPLACED');
  });

  it.each(['/api/logout', '/api/oauth2/v2.0/logout'])('signs out through %s: 204, then the token and refresh token fail', async (url) => {
    const { c, login } = await signedIn();
    const res = await c.post(url);
    expect(res.status).toBe(204);
    expect((await c.get('/api/auth/me')).status).toBe(401);
    expect((await c.get('/api/auth/me')).body.code).toBe('UNAUTHENTICATED');
    expect((await c.post('/api/auth/refresh', { refreshToken: login.refreshToken })).status).toBe(401);
    expect((await sessionRow(sidOf(login.refreshToken))).revoked_reason).toBe('logout');
    const audit = await t.app.db.selectFrom('audit_log').select('action').where('action', '=', 'auth.logout').execute();
    expect(audit.length).toBeGreaterThan(0);
  });

  it('signs out with only the refresh token when the access token is gone', async () => {
    const { c, login } = await signedIn();
    c.token = '';
    expect((await c.post('/api/logout', { refreshToken: login.refreshToken })).status).toBe(204);
    expect((await sessionRow(sidOf(login.refreshToken))).revoked_reason).toBe('logout');
  });

  it('answers a sign-out without any token with 204 and ends nothing', async () => {
    const { login } = await signedIn();
    const anonymous = await new TestClient(t.app).init();
    expect((await anonymous.post('/api/logout')).status).toBe(204);
    expect((await sessionRow(sidOf(login.refreshToken))).revoked_at).toBeNull();
  });

  it('refuses a sign-out without the XSRF header with 403', async () => {
    const { c } = await signedIn();
    expect((await c.post('/api/logout', undefined, { 'x-xsrf-token': '' })).status).toBe(403);
    expect((await c.get('/api/auth/me')).status).toBe(200);
  });
});
