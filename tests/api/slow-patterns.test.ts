import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// Validation runs before the database is touched, so one database is enough here.
describe('an unauthenticated request with a huge e-mail does not freeze the server', () => {
  let t: TestApp;
  let base: string;
  let xsrf: string;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // Anyone gets the XSRF cookie from any answer; the attack needs no session.
    const cookie = (await fetch(`${base}/api/health`)).headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
    xsrf = String(cookie).split(';')[0]!.split('=')[1]!;
  });
  afterAll(async () => t?.close());

  const timed = async (url: string, init?: RequestInit) => {
    const started = performance.now();
    const res = await fetch(`${base}${url}`, init);
    return { status: res.status, body: await res.json(), ms: performance.now() - started };
  };

  // The body: 64 KB of dots between two @. The old pattern took 10.6 s on it; a body near
  // BODY_LIMIT would have held the event loop for over 20 minutes.
  const bodies = {
    '64 KB': { email: `a@${'.'.repeat(64_000)}@`, password: 'x' },
    '1 MB': { email: `a@${'.'.repeat(1_000_000)}@`, password: 'x' },
  };

  describe.each(['/api/login', '/api/auth/login', '/api/auth/forgot-password'])('%s', (url) => {
    it.each(Object.keys(bodies) as Array<keyof typeof bodies>)('answers a %s e-mail at once while /api/health keeps answering', async (size) => {
      const body = url.endsWith('forgot-password') ? { email: bodies[size].email } : bodies[size];
      const attack = timed(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
        body: JSON.stringify(body),
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const health = await timed('/api/health');
      const answer = await attack;
      expect(health.status).toBe(200);
      expect(health.ms).toBeLessThan(1500);
      expect(answer.ms).toBeLessThan(1500);
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'email', keyword: 'maxLength', messageKey: 'validation.email.invalid' })]);
    });
  });
});
