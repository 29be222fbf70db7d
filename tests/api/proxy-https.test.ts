import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const cookiesOf = (res: { headers: Record<string, unknown> }) => [res.headers['set-cookie']].flat().map(String);

// Headers and cookies only: one database is enough.
describe('TLS behind a trusted proxy, HSTS and the CSP', () => {
  let proxied: TestApp;
  let direct: TestApp;

  beforeAll(async () => {
    proxied = await startTestApp('pglite', { TRUST_PROXY: '127.0.0.1', HSTS: '31536000', CSP_IMG_SRC: 'https://avatars.example.com' });
    direct = await startTestApp('pglite');
  }, 300_000);
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
  });

  const health = (t: TestApp, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/health', headers });

  it('marks cookies Secure and sends HSTS when the trusted proxy says the request is https', async () => {
    const res = await health(proxied, { 'x-forwarded-proto': 'https' });
    expect(cookiesOf(res).find((c) => c.startsWith('XSRF-TOKEN='))).toMatch(/; Secure/);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');

    const c = await new TestClient(proxied.app).init();
    const login = await c.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { 'x-forwarded-proto': 'https' });
    expect(login.status).toBe(200);
    expect(cookiesOf(login).find((x) => x.startsWith('AC-DEVICE='))).toMatch(/; Secure/);
  });

  it('neither over plain http nor when an untrusted client claims https', async () => {
    const plain = await health(proxied);
    expect(cookiesOf(plain).find((c) => c.startsWith('XSRF-TOKEN='))).not.toMatch(/Secure/);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const forged = await health(direct, { 'x-forwarded-proto': 'https' });
    expect(cookiesOf(forged).find((c) => c.startsWith('XSRF-TOKEN='))).not.toMatch(/Secure/);
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends no HSTS unless HSTS is set', async () => {
    const viaProxy = await startTestApp('pglite', { TRUST_PROXY: '127.0.0.1' });
    try {
      const res = await health(viaProxy, { 'x-forwarded-proto': 'https' });
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(cookiesOf(res).find((c) => c.startsWith('XSRF-TOKEN='))).toMatch(/; Secure/);
    } finally {
      await viaProxy.close();
    }
  }, 180_000);

  it('allows images only from the console, data: URLs and the CSP_IMG_SRC origins, and no other base URI', async () => {
    const csp = String((await health(direct)).headers['content-security-policy']);
    expect(csp).toMatch(/img-src 'self' data:(;|$)/);
    expect(csp).not.toMatch(/http:|https:/);
    expect(csp).toContain("base-uri 'none'");
    expect(String((await health(proxied)).headers['content-security-policy'])).toMatch(/img-src 'self' data: https:\/\/avatars\.example\.com(;|$)/);
  });

  it('refuses a wrong HSTS or CSP_IMG_SRC at start, naming the variable', () => {
    expect(() => loadConfig({ HSTS: 'yes' })).toThrow(/HSTS/);
    expect(() => loadConfig({ CSP_IMG_SRC: 'http://insecure.example.com' })).toThrow(/CSP_IMG_SRC must list https origins/);
    expect(() => loadConfig({ CSP_IMG_SRC: "https://x.example.com; script-src 'unsafe-inline'" })).toThrow(/CSP_IMG_SRC/);
  });
});
