import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIGURES } from '../../src/features/demo/server/demo-data.js';
import { judgingStatus } from '../../src/features/judging/index.js';
import { LATEST_CONTESTS } from '../../src/features/judging/server/dashboard.service.js';
import type { DashboardData } from '../../src/features/judging/shared/dashboard-contract.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

describe('judgingStatus', () => {
  it('derives the dashboard status from the contest status and its grades per round', () => {
    expect(judgingStatus('rejected', 3, 2)).toBe('cancelled');
    expect(judgingStatus('approved', 0, 0)).toBe('not_graded_r1');
    expect(judgingStatus('submitted', 0, 4)).toBe('not_graded_r1');
    expect(judgingStatus('approved', 3, 0)).toBe('not_graded_r2');
    expect(judgingStatus('approved', 3, 3)).toBe('graded');
  });
});

describe.each(testDatabaseKinds())('dashboard on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, { DEMO_DATA: 'true' }));
  });
  afterAll(async () => t?.close());

  it('needs a signed-in admin', async () => {
    const anonymous = await new TestClient(t.app).init();
    const res = await anonymous.get('/api/dashboard');
    expect(res.status).toBe(401);
  });

  it("shows the spec's sample figures on fresh demo data", async () => {
    const res = await client.get<{ data: DashboardData }>('/api/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.data.totals).toEqual({ juries: DEMO_FIGURES.juries, exams: DEMO_FIGURES.exams, companies: DEMO_FIGURES.companies });
    expect(res.body.data.rounds).toEqual(DEMO_FIGURES.rounds);
    expect(DEMO_FIGURES).toMatchObject({
      juries: 20,
      exams: 12,
      companies: 10,
      rounds: [
        { juries: 12, graded: 89 },
        { juries: 8, graded: 34 },
      ],
    });
  });

  it('lists the latest contests newest first, with company, category, jurors per round and the derived status', async () => {
    const { data } = (await client.get<{ data: DashboardData }>('/api/dashboard')).body;
    const latest = data.latestContests;
    expect(latest).toHaveLength(LATEST_CONTESTS);
    const times = latest.map((c) => Date.parse(c.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const statuses = new Set(latest.map((c) => c.status));
    for (const status of ['not_graded_r1', 'not_graded_r2', 'cancelled'] as const) expect(statuses).toContain(status);

    const db = t.app.db as any;
    for (const row of latest) {
      const contest = await db.selectFrom('contests').select(['status', 'customer_id', 'category_id']).where('id', '=', row.id).executeTakeFirstOrThrow();
      const customer = await db.selectFrom('customers').select('company').where('id', '=', contest.customer_id).executeTakeFirstOrThrow();
      const category = await db.selectFrom('categories').select('name').where('id', '=', contest.category_id).executeTakeFirstOrThrow();
      expect(row.company).toBe(customer.company);
      expect(row.categories).toEqual([category.name]);
      const graders = await sql<{ round: number; name: string }>`select e.round, j.name from grades g join exams e on e.id = g.exam_id
        join juries j on j.id = g.jury_id where g.contest_id = ${row.id} order by j.name`.execute(db);
      expect(row.juryR1).toEqual(graders.rows.filter((g) => Number(g.round) === 1).map((g) => g.name));
      expect(row.juryR2).toEqual(graders.rows.filter((g) => Number(g.round) === 2).map((g) => g.name));
      expect(row.status).toBe(judgingStatus(contest.status, row.juryR1.length, row.juryR2.length));
    }
  });

  it('follows the data: a new juror, exam grade and rejection change the figures', async () => {
    const db = t.app.db as any;
    const before = (await client.get<{ data: DashboardData }>('/api/dashboard')).body.data;
    const created = await client.post('/api/juries', {
      name: 'Zainab Othman',
      email: 'zainab.othman@jury.awards.my',
      round: 2,
      country: 'MY',
      is_active: true,
    });
    expect(created.status).toBe(201);
    const newest = before.latestContests[0]!;
    const exam = await db.selectFrom('exams').select('id').where('round', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    await db.insertInto('grades').values({ contest_id: newest.id, jury_id: created.body.data.id, exam_id: exam.id, score: 77 }).execute();
    const second = before.latestContests[1]!;
    await db.updateTable('contests').set({ status: 'rejected' }).where('id', '=', second.id).execute();

    const after = (await client.get<{ data: DashboardData }>('/api/dashboard')).body.data;
    expect(after.totals.juries).toBe(before.totals.juries + 1);
    expect(after.rounds[1].juries).toBe(before.rounds[1].juries + 1);
    expect(after.rounds[0].graded).toBe(before.rounds[0].graded + 1);
    expect(after.latestContests[0]!.juryR1).toContain('Zainab Othman');
    expect(after.latestContests[0]!.status).not.toBe('not_graded_r1');
    expect(after.latestContests[1]!.status).toBe('cancelled');
  });
});

describe.each(testDatabaseKinds())('dashboard on an empty %s database', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('shows zeros and no contests', async () => {
    const client = await new TestClient(t.app).init();
    await client.signIn();
    const res = await client.get<{ data: DashboardData }>('/api/dashboard');
    expect(res.body.data).toEqual({
      totals: { juries: 0, exams: 0, companies: 0 },
      rounds: [
        { round: 1, juries: 0, graded: 0 },
        { round: 2, juries: 0, graded: 0 },
      ],
      latestContests: [],
    });
  });
});
