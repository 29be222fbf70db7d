import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('saved views on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let other: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
    const registered = await client.post('/api/auth/register', { name: 'Second Admin', email: 'second@example.com', password: 'another-horse-battery' });
    if (registered.status !== 201) throw new Error(JSON.stringify(registered.body));
    other = await new TestClient(t.app).init();
    await other.signIn('second@example.com', 'another-horse-battery');
  });
  afterAll(async () => t?.close());

  it('keeps a private view for its owner and a shared one for every admin', async () => {
    const mine = await client.post('/api/views', { entity: 'contest', name: 'Approved', query: '?status=approved&sort=status&direction=desc' });
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({ name: 'Approved', query: 'status=approved&sort=status&direction=desc', shared: false, mine: true });
    const shared = await client.post('/api/views', { entity: 'contest', name: 'Agency', query: 'q%5Bagency_name%5D=ogilvy', shared: true });
    expect(shared.status).toBe(201);
    expect((await client.get('/api/views?entity=contest')).body.data.map((v: any) => v.name)).toEqual(['Agency', 'Approved']);
    const seen = (await other.get('/api/views?entity=contest')).body.data;
    expect(seen).toEqual([expect.objectContaining({ name: 'Agency', shared: true, mine: false, query: 'q%5Bagency_name%5D=ogilvy' })]);
    expect((await other.delete(`/api/views/${shared.body.data.id}`)).status).toBe(404);
    expect((await client.delete(`/api/views/${mine.body.data.id}`)).status).toBe(204);
  });

  it('refuses a parameter the list does not have, and an empty name', async () => {
    expect((await client.post('/api/views', { entity: 'contest', name: 'x', query: 'nope=1' })).status).toBe(400);
    const unnamed = await client.post('/api/views', { entity: 'contest', name: ' ', query: '' });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.errors[0].messageKey).toBe('dataio.views.errors.name_required');
  });
});
