import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(testDatabaseKinds())('auth guard on %s', (kind) => {
  let t: TestApp;
  let c: TestClient;
  let login: Awaited<ReturnType<TestClient['signIn']>>;

  beforeAll(async () => {
    t = await startTestApp(kind);
    c = await new TestClient(t.app).init();
    login = await c.signIn();
  });
  afterAll(async () => t?.close());

  const me = (headers: Record<string, string>) => c.get('/api/auth/me', headers);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'x-access-token': token });
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

  it('lets a valid token through in either header', async () => {
    expect((await me({ authorization: `Bearer ${login.token}`, 'x-access-token': '' })).status).toBe(200);
    expect((await me({ authorization: '', 'x-access-token': login.token })).status).toBe(200);
  });

  it('answers a request without a token with 401 UNAUTHENTICATED', async () => {
    const res = await me({ authorization: '', 'x-access-token': '' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('keeps public routes and unknown /api paths as they are', async () => {
    const anonymous = { authorization: '', 'x-access-token': '' };
    expect((await c.get('/api/health', anonymous)).status).toBe(200);
    expect((await c.get('/api/no-such-route', anonymous)).status).toBe(404);
  });

  it('answers an expired token with 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { sub, sid, email, name } = claimsOf(login.token);
    const expired = await new SignJWT({ sid, email, name, role: 'admin', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 10)
      .sign(t.app.jwtSecret);
    const res = await me(bearer(expired));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('answers a forged token (wrong key, changed claims) with 401', async () => {
    const claims = claimsOf(login.token);
    const wrongKey = await signAccessToken(new TextEncoder().encode('x'.repeat(48)), {
      userId: Number(claims.sub),
      sid: claims.sid,
      email: claims.email,
      name: claims.name,
      role: 'admin',
    });
    expect((await me(bearer(wrongKey))).status).toBe(401);
    const [header, , signature] = login.token.split('.');
    const tampered = `${header}.${b64({ ...claims, sub: '999' })}.${signature}`;
    expect((await me(bearer(tampered))).status).toBe(401);
  });

  it('answers an alg: none token with 401', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(login.token))}.`;
    const res = await me(bearer(token));
    expect(res.status).toBe(401);
  });

  it('answers a refresh token used as an access token with 401', async () => {
    const res = await me(bearer(login.refreshToken));
    expect(res.status).toBe(401);
  });

  it('answers a valid token whose role is not admin with 403 FORBIDDEN', async () => {
    const claims = claimsOf(login.token);
    const userToken = await signAccessToken(t.app.jwtSecret, {
      userId: Number(claims.sub),
      sid: claims.sid,
      email: claims.email,
      name: claims.name,
      role: 'user',
    });
    const res = await me(bearer(userToken));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  it('answers a token of a session revoked by another server within a second', async () => {
    const other = await new TestClient(t.app).init();
    const session = await other.signIn();
    expect((await other.get('/api/auth/me')).status).toBe(200);
    const { sid } = claimsOf(session.token);
    // Another process revokes it straight in the database: this process only learns through its ≤1 s cache.
    await sql`update sessions set revoked_at = now(), revoked_reason = 'logout' where id = ${sid}`.execute(t.app.db);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await other.get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('makes the first session answer 401 SESSION_REPLACED after a second sign-in', async () => {
    const first = await new TestClient(t.app).init();
    await first.signIn();
    expect((await first.get('/api/auth/me')).status).toBe(200);
    const second = await new TestClient(t.app).init();
    await second.signIn();
    const res = await first.get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SESSION_REPLACED');
    expect((await second.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses a write without the XSRF header with 403 even when signed in', async () => {
    const fresh = await new TestClient(t.app).init();
    await fresh.signIn();
    const res = await fresh.put('/api/auth/me', { name: 'Someone' }, { 'x-xsrf-token': '' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
});
