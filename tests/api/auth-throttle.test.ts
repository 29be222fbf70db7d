import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredResets } from '../../src/server/auth/password-resets.js';
import { purgeOldSessions } from '../../src/server/auth/sessions.js';
import { purgeThrottles, THROTTLE_RULES } from '../../src/server/auth/throttle.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, TestClient, type TestApp } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('sign-in and reset throttling on %s', (kind) => {
  let t: TestApp;
  let proxied: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind);
    proxied = await startTestApp(kind, { TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  // Fills an address's window as if `hits` attempts had been made from it.
  const fill = (app: TestApp, key: string, hits: number) =>
    sql`insert into throttles (key, hits, reset_at) values (${key}, ${hits}, now() + interval '15 minutes')
        on conflict (key) do update set hits = excluded.hits, reset_at = excluded.reset_at`.execute(app.app.db);

  it('answers the sixth failed sign-in of one account with 429 and Retry-After, even with the right password', async () => {
    const c = await new TestClient(t.app).init();
    await c.signIn();
    await c.post('/api/auth/register', { name: 'Eko', email: 'eko@example.com', password: 'eko-password-1' });
    for (let i = 0; i < THROTTLE_RULES.loginPerAccount.limit; i++) {
      const variant = i % 2 ? 'EKO@example.com' : ' eko@example.com';
      expect((await c.post('/api/login', { email: variant, password: `wrong-${i}` })).status).toBe(401);
    }
    const blocked = await c.post('/api/login', { email: 'eko@example.com', password: 'eko-password-1' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(THROTTLE_RULES.loginPerAccount.windowSeconds);
    // Junk fields are refused outright, so they cannot make a fresh throttle key.
    expect((await c.post('/api/login', { email: 'eko@example.com', password: 'eko-password-1', nonce: 1 })).status).toBe(422);
    // Other accounts are unaffected.
    expect((await c.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(200);
  });

  it('clears an account counter after a successful sign-in', async () => {
    const c = await new TestClient(t.app).init();
    for (let i = 0; i < THROTTLE_RULES.loginPerAccount.limit - 1; i++) {
      expect((await c.post('/api/login', { email: ADMIN_EMAIL, password: 'wrong-password' })).status).toBe(401);
    }
    await c.signIn();
    const row = await t.app.db.selectFrom('throttles').select('hits').where('key', '=', `login:account:${ADMIN_EMAIL}`).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('throttles one address across accounts, and a forged X-Forwarded-For does not get around it', async () => {
    await fill(t, 'login:address:127.0.0.1', THROTTLE_RULES.loginPerAddress.limit);
    const c = await new TestClient(t.app).init();
    const res = await c.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { 'x-forwarded-for': '203.0.113.7' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const unknown = await c.post('/api/login', { email: 'someone-else@example.com', password: 'whatever' });
    expect(unknown.status).toBe(429);
    await sql`delete from throttles`.execute(t.app.db);
  });

  it('believes X-Forwarded-For only from a configured trusted proxy', async () => {
    await fill(proxied, 'login:address:203.0.113.7', THROTTLE_RULES.loginPerAddress.limit);
    const c = await new TestClient(proxied.app).init();
    const blocked = await c.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { 'x-forwarded-for': '203.0.113.7' });
    expect(blocked.status).toBe(429);
    const other = await c.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { 'x-forwarded-for': '198.51.100.4' });
    expect(other.status).toBe(200);
  });

  it('throttles forgot-password per account and per address with 429', async () => {
    const c = await new TestClient(t.app).init();
    for (let i = 0; i < THROTTLE_RULES.forgotPerAccount.limit; i++) {
      expect((await c.post('/api/auth/forgot-password', { email: 'nobody@example.com' })).status).toBe(202);
    }
    const res = await c.post('/api/auth/forgot-password', { email: 'NOBODY@example.com' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await fill(t, 'forgot:address:127.0.0.1', THROTTLE_RULES.forgotPerAddress.limit);
    expect((await c.post('/api/auth/forgot-password', { email: 'fresh@example.com' }, { 'x-forwarded-for': '192.0.2.1' })).status).toBe(429);
    await sql`delete from throttles`.execute(t.app.db);
  });

  it('throttles reset-password guesses per address with 429', async () => {
    const c = await new TestClient(t.app).init();
    for (let i = 0; i < THROTTLE_RULES.resetPerAddress.limit; i++) {
      expect((await c.post('/api/auth/reset-password', { token: `guess-${i}`, password: 'new-password-1' })).status).toBe(400);
    }
    const res = await c.post('/api/auth/reset-password', { token: 'guess-final', password: 'new-password-1' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await sql`delete from throttles`.execute(t.app.db);
  });
});

describe.each(testDatabaseKinds())('auth housekeeping on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('deletes ended throttle windows, long-ended sessions and expired reset tokens, keeping live ones', async () => {
    const db = t.app.db;
    const c = await new TestClient(t.app).init();
    const login = await c.signIn();
    const admin = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await sql`insert into throttles (key, hits, reset_at) values ('old', 3, now() - interval '1 second'), ('current', 3, now() + interval '1 minute')`.execute(db);
    await sql`insert into sessions (id, user_id, refreshed_at, idle_expires_at, absolute_expires_at, revoked_at, revoked_reason)
      values ('longgoneSession0001', ${admin.id}, now() - interval '93 days', now() - interval '93 days', now() - interval '92 days', now() - interval '92 days', 'logout')`.execute(db);
    await sql`insert into password_resets (user_id, token_hash, expires_at) values (${admin.id}, 'old-hash', now() - interval '2 days'), (${admin.id}, 'new-hash', now() + interval '1 hour')`.execute(db);

    await Promise.all([purgeThrottles(db), purgeOldSessions(db), purgeExpiredResets(db)]);

    const keys = (await db.selectFrom('throttles').select('key').execute()).map((r) => r.key);
    expect(keys).toContain('current');
    expect(keys).not.toContain('old');
    const sessions = (await db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
    expect(sessions).not.toContain('longgoneSession0001');
    expect(sessions).toContain(login.refreshToken.split('.')[0]);
    expect((await db.selectFrom('password_resets').select('token_hash').execute()).map((r) => r.token_hash)).toEqual(['new-hash']);
  });
});
