import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('foundation on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    t = await startTestApp(kind);
    client = await new TestClient(t.app).init();
  });
  afterAll(async () => t?.close());

  it('answers the health check with the database up', async () => {
    const res = await client.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'up' });
  });

  it('answers the health check while a long transaction holds the database, even one that has failed', async () => {
    let answered: { status: number; ms: number } | undefined;
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        const started = performance.now();
        const res = await client.get('/api/health');
        answered = { status: res.status, ms: performance.now() - started };
        expect(res.body).toMatchObject({ database: 'up' });
        // A statement that fails leaves the transaction aborted until it is rolled back.
        await sql`select 1 / 0`.execute(trx).catch(() => undefined);
        expect((await client.get('/api/health')).status).toBe(200);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    // PGlite has one session, held by the transaction: the check asks the engine itself. PostgreSQL
    // answers from another connection of the pool.
    expect(answered?.status).toBe(200);
    expect(answered!.ms).toBeLessThan(5000);
  });

  it("sends security headers with a CSP that allows no inline script but the pages' boot script, by its hash", async () => {
    const res = await client.get('/api/health');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The built pages' one inline script (build.mjs writes the boot script into them), and only it.
    const pages = fs.readdirSync(t.app.config.publicDir).filter((name) => /^index(\.[a-z]+)?\.html$/.test(name));
    expect(pages).toContain('index.html');
    const inline = new Set(
      pages.flatMap((name) =>
        [...fs.readFileSync(path.join(t.app.config.publicDir, name), 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!),
      ),
    );
    expect(inline.size).toBe(1);
    const hash = `'sha256-${createHash('sha256')
      .update([...inline][0]!, 'utf8')
      .digest('base64')}'`;
    expect(/script-src ([^;]*)/.exec(csp)?.[1]?.split(' ')).toEqual(["'self'", hash]);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('marks every API answer, errors included, as not to be stored by a browser or a proxy', async () => {
    await client.signIn();
    for (const url of ['/api/health', '/api/categories', '/api/auth/me', '/api/no-such-thing', '/api/categories/999999']) {
      expect((await client.get(url)).headers['cache-control'], url).toBe('no-store');
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/categories' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await client.get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'No route GET /api/no-such-thing.' });
  });

  it('refuses a write without the XSRF header with 403', async () => {
    const res = await client.post('/api/login', { email: 'a@b.co', password: 'x' }, { 'x-xsrf-token': '' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  it('refuses a write whose XSRF header does not match the cookie with 403', async () => {
    const res = await client.post('/api/login', { email: 'a@b.co', password: 'x' }, { 'x-xsrf-token': 'forged' });
    expect(res.status).toBe(403);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await client.request('POST', '/api/login', undefined, { 'content-type': 'text/plain' });
    const withBody = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: 'email=a@b.co',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `XSRF-TOKEN=${client.xsrf}`, 'x-xsrf-token': client.xsrf },
    });
    expect(withBody.statusCode).toBe(415);
    expect(JSON.parse(withBody.body).code).toBe('BAD_REQUEST');
    expect(res.status).not.toBe(500);
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await client.post('/api/login', { email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('BAD_REQUEST');
  });

  it('answers malformed JSON with 400 and no internals', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: '{"email": ',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${client.xsrf}`, 'x-xsrf-token': client.xsrf },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/at |stack|node_modules/);
  });
});
