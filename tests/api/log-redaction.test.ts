import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { redactUrl } from '../../src/server/log-redaction.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/test-app.js';

describe('tokens stay out of the request log', () => {
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({ DATA_DIR: ':memory:', LOG_LEVEL: 'info', ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DATA: 'false', BACKUP_INTERVAL_HOURS: '0' });
    app = await buildApp(config, { logger: { stream } });
  });
  afterAll(async () => app?.close());

  it.each([
    '/reset-password?token=RESETSECRET123',
    '/authorizer?lang=en&token=AUTHSECRET456',
    '/api/auth/me?access_token=APISECRET789',
    '/reset-password?%74oken=ENCODEDSECRET',
  ])('logs %s without the token', async (url) => {
    await app.inject({ method: 'GET', url });
    const log = lines.join('');
    expect(log).toContain(url.split('?')[0]);
    expect(log).toMatch(/=\[REDACTED\]/);
    expect(log).not.toMatch(/SECRET\d*/);
  });

  it('keeps the other parameters', () => {
    expect(redactUrl('/api/categories?search=gold&page=2&refreshToken=x')).toBe('/api/categories?search=gold&page=2&refreshToken=[REDACTED]');
    expect(redactUrl('/api/categories')).toBe('/api/categories');
  });
});
