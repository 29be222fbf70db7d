import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, LOCKOUT_RULES } from '../../src/server/auth/lockout.js';
import { purgeExpiredResets } from '../../src/server/auth/password-resets.js';
import { purgeOldSessions } from '../../src/server/auth/sessions.js';
import { purgeThrottles, THROTTLE_RULES } from '../../src/server/auth/throttle.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

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
  const fill = (app: TestApp, key: string, hits: number, windowSeconds = 15 * 60) =>
    sql`insert into throttles (key, hits, reset_at) values (${key}, ${hits}, now() + make_interval(secs => ${windowSeconds}))
        on conflict (key) do update set hits = excluded.hits, reset_at = excluded.reset_at`.execute(app.app.db);

  const delays = LOCKOUT_RULES.login.pair;
  const deviceOf = (res: { headers: Record<string, unknown> }) =>
    String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith(`${DEVICE_COOKIE}=`)) ?? '')
      .split(';')[0]!
      .split('=')[1]!;
  // Sends a request as a browser at `ip`, with its device cookie when it has one.
  const as = async (c: TestClient, url: string, body: unknown, ip: string, device?: string) =>
    c.post(url, body, { 'x-forwarded-for': ip, cookie: `XSRF-TOKEN=${c.xsrf}${device ? `; ${DEVICE_COOKIE}=${device}` : ''}` });
  const wait = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);
  // Moves every window of `prefix` back, as if `seconds` had passed.
  const pass = (app: TestApp, prefix: string, seconds: number) =>
    sql`update throttles set reset_at = reset_at - make_interval(secs => ${seconds}) where key like ${`${prefix}%`}`.execute(app.app.db);

  it('delays one client progressively, yet the right password still gets in from a browser or address that signed in before', async () => {
    const c = await new TestClient(proxied.app).init();
    await c.signIn();
    await c.post('/api/auth/register', { name: 'Eko', email: 'eko@example.com', password: 'eko-password-1' });
    const home = await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '198.51.100.4');
    expect(home.status).toBe(200);
    const device = deviceOf(home);
    expect(device).toMatch(/^[\w-]{22}~[\w-]{22}$/);
    expect(String([home.headers['set-cookie']].flat().find((x) => String(x).startsWith(DEVICE_COOKIE)))).toMatch(/HttpOnly/i);

    // An attacker at another address: a few tries at once, then waits that double.
    for (let i = 0; i < delays.free; i++) {
      const variant = i % 2 ? 'EKO@example.com' : ' eko@example.com';
      expect((await as(c, '/api/login', { email: variant, password: `wrong-${i}` }, '203.0.113.7')).status).toBe(401);
    }
    const held = await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '203.0.113.7');
    expect(held.status).toBe(429);
    expect(held.body.code).toBe('RATE_LIMITED');
    expect(wait(held)).toBeGreaterThanOrEqual(1);
    expect(wait(held)).toBeLessThanOrEqual(delays.baseDelaySeconds);
    await pass(proxied, 'login:pair:eko@example.com:203.0.113.7', delays.baseDelaySeconds);
    expect((await as(c, '/api/login', { email: 'eko@example.com', password: 'wrong-again' }, '203.0.113.7')).status).toBe(401);
    const longer = await as(c, '/api/login', { email: 'eko@example.com', password: 'x' }, '203.0.113.7');
    expect(longer.status).toBe(429);
    expect(wait(longer)).toBeGreaterThan(delays.baseDelaySeconds);
    expect(wait(longer)).toBeLessThanOrEqual(delays.baseDelaySeconds * 2);
    // Junk fields are refused outright, so they cannot make a fresh throttle key.
    expect((await c.post('/api/login', { email: 'eko@example.com', password: 'eko-password-1', nonce: 1 })).status).toBe(422);

    // Failures from many addresses fill the account's limit for clients it does not know...
    await fill(proxied, 'login:account:eko@example.com', LOCKOUT_RULES.login.accountFromUnknown.limit);
    expect((await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '192.0.2.9')).status).toBe(429);
    // ...but the browser that signed in before gets in from anywhere, and so does its address.
    const travelling = await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '192.0.2.50', device);
    expect(travelling.status).toBe(200);
    expect(deviceOf(travelling)).toBe(device);
    expect((await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '198.51.100.4')).status).toBe(200);
    // Even an attacker at that same address cannot hold the browser back: its count is its own.
    await fill(proxied, 'login:pair:eko@example.com:198.51.100.4', 50, delays.windowSeconds);
    expect((await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '198.51.100.4')).status).toBe(429);
    expect((await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '198.51.100.4', device)).status).toBe(200);
    // A forged or other account's cookie counts for nothing.
    const forged = `${device.split('~')[0]}~${'A'.repeat(22)}`;
    expect((await as(c, '/api/login', { email: 'eko@example.com', password: 'eko-password-1' }, '192.0.2.51', forged)).status).toBe(429);
    // Other accounts are unaffected.
    expect((await as(c, '/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, '192.0.2.9')).status).toBe(200);
    await sql`delete from throttles`.execute(proxied.app.db);
  });

  it('lets parallel guesses from one client through no faster than one after another', async () => {
    const c = await new TestClient(proxied.app).init();
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => as(c, '/api/login', { email: ADMIN_EMAIL, password: `parallel-${i}` }, '203.0.113.99')),
    );
    const seconds = (Date.now() - started) / 1000;
    // One after another, the free tries pass at once and each later one only after its wait
    // (base, then double): on a loaded machine the burst may outlast the first waits.
    let earned = 0;
    while (delays.baseDelaySeconds * (2 ** (earned + 1) - 1) <= seconds) earned++;
    const statuses = answers.map((a) => a.status);
    const letThrough = statuses.filter((s) => s === 401).length;
    expect(letThrough).toBeGreaterThanOrEqual(delays.free);
    expect(letThrough).toBeLessThanOrEqual(delays.free + earned);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - letThrough);
    await sql`delete from throttles`.execute(proxied.app.db);
  });

  it('clears a client’s failures after a successful sign-in', async () => {
    const c = await new TestClient(t.app).init();
    for (let i = 0; i < delays.free - 1; i++) {
      expect((await c.post('/api/login', { email: ADMIN_EMAIL, password: 'wrong-password' })).status).toBe(401);
    }
    await c.signIn();
    const rows = await t.app.db.selectFrom('throttles').select('key').where('key', 'like', `login:%${ADMIN_EMAIL}%`).execute();
    expect(rows).toEqual([]);
  });

  it('throttles one unknown address across accounts, and a forged X-Forwarded-For does not get around it', async () => {
    await fill(t, 'login:address:127.0.0.1', LOCKOUT_RULES.login.address.limit);
    const c = await new TestClient(t.app).init();
    const unknown = await c.post('/api/login', { email: 'someone-else@example.com', password: 'whatever' }, { 'x-forwarded-for': '203.0.113.7' });
    expect(unknown.status).toBe(429);
    expect(wait(unknown)).toBeGreaterThan(0);
    await sql`delete from throttles`.execute(t.app.db);
  });

  it('believes X-Forwarded-For only from a configured trusted proxy', async () => {
    await fill(proxied, 'login:address:203.0.113.8', LOCKOUT_RULES.login.address.limit);
    const c = await new TestClient(proxied.app).init();
    const blocked = await c.post('/api/login', { email: 'new@example.com', password: 'whatever' }, { 'x-forwarded-for': '203.0.113.8' });
    expect(blocked.status).toBe(429);
    const other = await c.post('/api/login', { email: 'new@example.com', password: 'whatever' }, { 'x-forwarded-for': '198.51.100.77' });
    expect(other.status).toBe(401);
    await sql`delete from throttles`.execute(proxied.app.db);
  });

  it('delays reset mail per account and address, and never holds it back from a browser that signed in before', async () => {
    const c = await new TestClient(proxied.app).init();
    const home = await as(c, '/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, '198.51.100.20');
    const device = deviceOf(home);
    const forgot = LOCKOUT_RULES.forgot.pair;
    for (let i = 0; i < forgot.free; i++) {
      expect((await as(c, '/api/auth/forgot-password', { email: ADMIN_EMAIL }, '203.0.113.30')).status).toBe(202);
    }
    const held = await as(c, '/api/auth/forgot-password', { email: 'ADMIN@example.com' }, '203.0.113.30');
    expect(held.status).toBe(429);
    expect(wait(held)).toBeGreaterThan(forgot.baseDelaySeconds / 2);
    expect(wait(held)).toBeLessThanOrEqual(forgot.baseDelaySeconds);
    // Unknown e-mails are held back the same way: the answer tells nothing about accounts.
    for (let i = 0; i < forgot.free; i++) {
      expect((await as(c, '/api/auth/forgot-password', { email: 'nobody@example.com' }, '203.0.113.30')).status).toBe(202);
    }
    expect((await as(c, '/api/auth/forgot-password', { email: 'nobody@example.com' }, '203.0.113.30')).status).toBe(429);
    // Requests from everywhere fill the account's limit for unknown clients; the admin's browser still gets its mail.
    await fill(proxied, `forgot:account:${ADMIN_EMAIL}`, LOCKOUT_RULES.forgot.accountFromUnknown.limit);
    expect((await as(c, '/api/auth/forgot-password', { email: ADMIN_EMAIL }, '192.0.2.77')).status).toBe(429);
    expect((await as(c, '/api/auth/forgot-password', { email: ADMIN_EMAIL }, '192.0.2.77', device)).status).toBe(202);
    expect((await as(c, '/api/auth/forgot-password', { email: ADMIN_EMAIL }, '198.51.100.20')).status).toBe(202);
    await fill(proxied, 'forgot:address:192.0.2.78', LOCKOUT_RULES.forgot.address.limit);
    expect((await as(c, '/api/auth/forgot-password', { email: 'fresh@example.com' }, '192.0.2.78')).status).toBe(429);
    await sql`delete from throttles`.execute(proxied.app.db);
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
    await sql`insert into throttles (key, hits, reset_at) values ('old', 3, now() - interval '1 second'), ('current', 3, now() + interval '1 minute')`.execute(
      db,
    );
    await sql`insert into sessions (id, user_id, refreshed_at, idle_expires_at, absolute_expires_at, revoked_at, revoked_reason)
      values ('longgoneSession0001', ${admin.id}, now() - interval '93 days', now() - interval '93 days', now() - interval '92 days', now() - interval '92 days', 'logout')`.execute(
      db,
    );
    await sql`insert into password_resets (user_id, token_hash, expires_at) values (${admin.id}, 'old-hash', now() - interval '2 days'), (${admin.id}, 'new-hash', now() + interval '1 hour')`.execute(
      db,
    );

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
