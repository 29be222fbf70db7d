import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUrl } from '../../src/engine/data/list-url.js';
import { readListParams } from '../../src/engine/list/list-params.js';
import type { ClientEntity } from '../../src/shared/descriptor/types.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

// `GET /api/meta/first-list`: the boot script asks the server for the list a page shows before the
// app (and its descriptors) have loaded. The answer must be the very page, and the very URL, the
// list screen then asks for itself, or the app would not pick it up.
describe.each(testDatabaseKinds())('first list of a page on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let contest: ClientEntity;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, { DEMO_DATA: 'true' }));
    const meta = await client.get('/api/meta/entities');
    contest = (meta.body.data as ClientEntity[]).find((entity) => entity.name === 'contest')!;
    expect(contest.routes.list).toBe('manage-contest');
  });
  afterAll(async () => t?.close());

  const firstList = (path: string, search?: string) =>
    client.get(`/api/meta/first-list?${new URLSearchParams(search === undefined ? { path } : { path, search })}`);

  it('answers the page the list screen would ask for, naming its URL, for the page, sort and filters of the address', async () => {
    for (const search of ['', '?page=2', '?page=3&sort=status&direction=asc&status=approved', '?page=2&q%5Bagency_name%5D=kancil']) {
      const answer = await firstList('/manage-contest', search);
      expect(answer.status, search).toBe(200);
      const url = listUrl(contest, readListParams(contest, new URLSearchParams(search)));
      expect(answer.headers['x-list-url'], search).toBe(url);
      const direct = await client.get(url);
      expect(direct.status).toBe(200);
      expect(answer.body, search).toEqual(direct.body);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
    // A trailing slash names the same list.
    expect((await firstList('/manage-contest/')).headers['x-list-url']).toBe(listUrl(contest, readListParams(contest, new URLSearchParams())));
  });

  it('answers 204 for a page that is no list, and refuses a stranger and a malformed request', async () => {
    for (const path of ['/dashboard', '/manage-contest/5', '/', '/manage-contestx']) expect((await firstList(path)).status, path).toBe(204);
    expect((await firstList('/x'.repeat(151))).status).toBe(400);
    expect((await client.get('/api/meta/first-list')).status).toBe(400);
    expect((await client.get('/api/meta/first-list?path=%2Fmanage-contest&other=1')).status).toBe(400);
    const stranger = await new TestClient(t.app).init();
    expect((await stranger.get('/api/meta/first-list?path=%2Fmanage-contest')).status).toBe(401);
  });

  it("passes on the list's own refusal: a page number that is no number", async () => {
    const answer = await firstList('/manage-contest', '?page=abc');
    const url = listUrl(contest, readListParams(contest, new URLSearchParams('?page=abc')));
    expect(answer.headers['x-list-url']).toBe(url);
    expect(answer.status).toBe((await client.get(url)).status);
  });
});
