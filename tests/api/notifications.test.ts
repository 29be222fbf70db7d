import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewContestsData } from '../../src/features/notifications/index.js';
import { FIRST_SIGN_IN_DAYS, LATEST_NOTIFICATIONS } from '../../src/features/notifications/server.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const DAY = 24 * 3_600_000;

describe.each(testDatabaseKinds())('notifications on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let db: any;

  beforeAll(async () => {
    t = await startTestApp(kind, { DEMO_DATA: 'true' });
    db = t.app.db;
    client = await new TestClient(t.app).init();
  });
  afterAll(async () => t?.close());

  const expected = async (since: Date) => {
    const rows = await db
      .selectFrom('contests')
      .select(['id', 'created_at'])
      .where('created_at', '>=', since)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows as Array<{ id: number }>;
  };

  it('needs a signed-in user (own events) and an admin (new contests)', async () => {
    const anonymous = await new TestClient(t.app).init();
    expect((await anonymous.get('/api/notifications')).status).toBe(401);
    expect((await anonymous.get('/api/notifications/new-contests')).status).toBe(401);
  });

  it(`counts the contests of the last ${FIRST_SIGN_IN_DAYS} days on a first sign-in, newest first`, async () => {
    const login = await client.signIn();
    expect(login.data.lastLoginTimestamp).toBeNull();
    const res = await client.get<{ data: NewContestsData }>('/api/notifications/new-contests');
    expect(res.status).toBe(200);
    const since = new Date(res.body.data.since);
    expect(Math.abs(since.getTime() - (Date.now() - FIRST_SIGN_IN_DAYS * DAY))).toBeLessThan(60_000);
    const rows = await expected(since);
    expect(rows.length).toBeGreaterThan(0);
    expect(res.body.data.count).toBe(rows.length);
    expect(res.body.data.latest.map((n) => n.id)).toEqual(rows.slice(0, LATEST_NOTIFICATIONS).map((r) => r.id));
    expect(res.body.data.latest[0]).toMatchObject({ href: `/manage-contest/${rows[0]!.id}` });
    expect(res.body.data.latest[0]!.company).toEqual(expect.any(String));
    expect(res.body.data.href).toMatch(/^\/manage-contest\?/);
    expect(res.body.data.href).toContain('sort=created_at');
    const linked = await client.get(`/api${res.body.data.href.replace('/manage-contest', '/contests')}`);
    expect(linked.status).toBe(200);
    expect(linked.body.meta.total).toBe(res.body.data.count);
    expect(linked.body.data[0].id).toBe(rows[0]!.id);
  });

  it("counts only the contests submitted since the admin's previous sign-in", async () => {
    const previous = new Date(Date.now() - 3 * DAY);
    await db.updateTable('users').set({ last_login_at: previous }).where('email', '=', 'admin@example.com').execute();
    await client.signIn();
    const res = await client.get<{ data: NewContestsData }>('/api/notifications/new-contests');
    expect(new Date(res.body.data.since).getTime()).toBe(previous.getTime());
    const rows = await expected(previous);
    expect(res.body.data.count).toBe(rows.length);
    expect(res.body.data.latest).toHaveLength(Math.min(LATEST_NOTIFICATIONS, rows.length));

    await db
      .updateTable('users')
      .set({ last_login_at: new Date(Date.now() + 60_000) })
      .where('email', '=', 'admin@example.com')
      .execute();
    await client.signIn();
    const none = await client.get<{ data: NewContestsData }>('/api/notifications/new-contests');
    expect(none.body.data.count).toBe(0);
    expect(none.body.data.latest).toEqual([]);
  });

  it("keeps the own-events answer free of anyone else's data, even for an admin", async () => {
    await client.signIn();
    const own = await client.get('/api/notifications');
    expect(own.status).toBe(200);
    expect(Object.keys(own.body.data).sort()).toEqual(['events', 'unread']);
  });
});
