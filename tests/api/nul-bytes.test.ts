import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldKind } from '../../src/shared/descriptor/schema-fields.js';
import { validBody } from '../fixtures/record-factory.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { allEntities, ENTITY_ENV } from './entities-helpers.js';

const NUL = '\u0000';

// PostgreSQL refuses NUL in text (22021); before, these answered 500.
describe.each(testDatabaseKinds())('a NUL character in a request answers 400 / 422, never 500, on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, ENTITY_ENV));
  });
  afterAll(async () => t?.close());

  it.each(allEntities.map((e) => [e.descriptor.name, e] as const))('%s: every list parameter', async (_name, entity) => {
    const d = entity.descriptor;
    const params = ['search', 'sort', 'order', 'page', 'per_page', ...d.list.filters.map((f) => f.param), 'q[unknown]'];
    for (const param of params) {
      const res = await client.get(`/api/${d.endpoint}?${encodeURIComponent(param)}=a%00b`);
      expect(res.status, `${param}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    expect((await client.get(`/api/${d.endpoint}/1%00`)).status).toBeLessThan(500);
  });

  it.each(allEntities.map((e) => [e.descriptor.name, e] as const))('%s: every text field of a create and an update body', async (_name, entity) => {
    const d = entity.descriptor;
    const textFields = Object.entries(entity.schema.properties ?? {})
      .filter(([, property]) => !property.readOnly && ['string', 'enum'].includes(String(fieldKind(property))))
      .map(([field]) => field);
    for (const field of textFields) {
      const body = { ...validBody(entity, 1, {}), [field]: `a${NUL}b` };
      const writes = [
        [client.post.bind(client), `/api/${d.endpoint}`, d.permissions.create.includes('admin')],
        [client.put.bind(client), `/api/${d.endpoint}/1`, d.permissions.update.includes('admin')],
      ] as const;
      for (const [send, url, allowed] of writes) {
        const res = await send(url, body);
        expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (!allowed) continue;
        expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(422);
        expect(res.body.errors).toContainEqual(expect.objectContaining({ path: field, keyword: 'characters', messageKey: 'validation.characters' }));
      }
    }
    // In a key, and deep inside a value, too.
    expect((await client.post(`/api/${d.endpoint}`, { [`x${NUL}`]: 1 })).status).toBe(422);
  });

  it('in sign-in and profile bodies too', async () => {
    expect((await client.post('/api/login', { email: `a${NUL}@example.com`, password: 'x' })).status).toBe(422);
    expect((await client.put('/api/auth/me', { name: `Admin${NUL}` })).status).toBe(422);
    expect((await client.get(`/api/auth/me?x=%00`)).status).toBe(400);
  });
});
