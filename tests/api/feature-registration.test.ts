import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredServerFeatures, registerServerFeature } from '../../src/server/features.js';
import { sponsorshipServer } from '../fixtures/sponsorship/server.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

// The README's worked example: a feature registered through the one server call, before the app is built.
registerServerFeature(sponsorshipServer);

describe('registerServerFeature', () => {
  it('takes a feature once and refuses another one under the same name', () => {
    expect(() => registerServerFeature(sponsorshipServer)).not.toThrow();
    expect(() => registerServerFeature({ name: 'sponsorship' })).toThrow('The server feature "sponsorship" is registered twice.');
    expect(registeredServerFeatures().map((feature) => feature.name)).toEqual(
      expect.arrayContaining(['judging', 'results', 'accounts', 'dataio', 'history', 'notifications', 'sponsorship']),
    );
  });
});

describe.each(testDatabaseKinds())('a registered feature on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
  });
  afterAll(async () => t?.close());

  it('runs its migration and serves its routes under /api, validated by their schemas', async () => {
    expect((await client.get('/api/sponsorship-deals')).body).toEqual({ data: [] });
    const created = await client.post('/api/sponsorship-deals', { sponsor: 'Acme Sdn Bhd', amount: 25000 });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(Number), sponsor: 'Acme Sdn Bhd', amount: 25000 });
    expect((await client.post('/api/sponsorship-deals', { sponsor: 'A', amount: 0, extra: true })).status).toBe(422);
    expect((await client.get('/api/sponsorship-deals')).body.data).toHaveLength(1);
  });

  it('audits its writes and is guarded like every route (admins only when it names no roles)', async () => {
    const audit = await client.get('/api/audit?action=sponsorship.create&per_page=10');
    expect(audit.status).toBe(200);
    expect(audit.body.data.length).toBeGreaterThan(0);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/sponsorship-deals' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await client.get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toContain('/api/sponsorship-deals');
  });
});
