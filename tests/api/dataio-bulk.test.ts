import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('bulk actions on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  const ids: number[] = [];

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
    for (const name of ['Alpha Film', 'Beta Film', 'Gamma Print', 'Delta Film']) {
      ids.push((await client.post('/api/categories', { name, description: 'A category for the bulk tests', status: 'active' })).body.data.id);
    }
    const customer = await t.app.db
      .insertInto('customers' as never)
      .values({ email: 'c@a.test', password_hash: 'scrypt$x', max_entries: 1, is_active: true } as never)
      .returning(sql<number>`id`.as('id'))
      .executeTakeFirstOrThrow();
    // Beta Film is in use by a contest.
    await t.app.db
      .insertInto('contests' as never)
      .values({ customer_id: (customer as { id: number }).id, category_id: ids[1], status: 'pending' } as never)
      .execute();
  });
  afterAll(async () => t?.close());

  it('lists the ids of all rows matching the filter, in the list order', async () => {
    const res = await client.get('/api/categories/ids?search=film&sort=name&direction=desc');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([ids[3], ids[1], ids[0]]);
    expect((await client.get('/api/categories/ids?q[nope]=1')).status).toBe(400);
  });

  it('sets a field the descriptor allows on every selected row, and refuses others', async () => {
    const res = await client.post('/api/categories/bulk', { action: 'set', ids: [ids[0], ids[2]], field: 'status', value: 'inactive' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ done: 2, failed: [] });
    const rows = (await sql<{ id: number; status: string }>`select id, status from categories order by id`.execute(t.app.db)).rows;
    expect(rows.map((row) => row.status)).toEqual(['inactive', 'active', 'inactive', 'active']);
    expect((await client.post('/api/categories/bulk', { action: 'set', ids: [ids[0]], field: 'name', value: 'x' })).status).toBe(400);
    expect((await client.post('/api/categories/bulk', { action: 'set', ids: [ids[0]], field: 'status', value: 'gone' })).status).toBe(400);
    expect((await client.post('/api/contests/bulk', { action: 'delete', ids: [1] })).status).toBe(404);
  });

  it('deletes in bulk: a row still in use is reported by id, the others are deleted, and it is audited', async () => {
    const res = await client.post('/api/categories/bulk', { action: 'delete', ids: [ids[0], ids[1], ids[3]] });
    expect(res.status).toBe(200);
    expect(res.body.data.done).toBe(2);
    expect(res.body.data.failed).toEqual([
      expect.objectContaining({ id: ids[1], code: 'CONFLICT', keyword: 'inUse', messageKey: 'errors.inUse', params: { count: 1, entity: 'contest' } }),
    ]);
    const left = (await sql<{ id: number }>`select id from categories order by id`.execute(t.app.db)).rows.map((row) => row.id);
    expect(left).toEqual([ids[1], ids[2]]);
    const audit = (await sql<{ details: any }>`select details from audit_log where action = 'data.bulk_delete' and entity = 'category'`.execute(t.app.db)).rows;
    expect(audit.map((row) => (typeof row.details === 'string' ? JSON.parse(row.details) : row.details).ids)).toEqual([[ids[0], ids[3]]]);
  });
});
