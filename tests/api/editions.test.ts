import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIGURES } from '../../src/features/demo/server/demo-data.js';
import type { CurrentEditionData } from '../../src/features/editions/index.js';
import { attachUnassignedRecords } from '../../src/features/editions/server/attach-records.js';
import type { DashboardData } from '../../src/features/judging/shared/dashboard-contract.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { CRITERIA, jurorClient } from '../helpers/judging-fixture.js';
import { startSignedInApp, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const archivedError = (body: any) => expect(body.errors?.[0]).toMatchObject({ keyword: 'edition_archived', messageKey: 'entities.edition.errors.archived' });

/** Signs in a second admin (created in the database) and returns its client. */
async function secondAdmin(t: TestApp, email: string): Promise<TestClient> {
  const password = 'second-admin-password-1';
  await sql`insert into users (email, name, password_hash, role) values (${email}, 'Second Admin', ${await hashPassword(password, { N: 2 ** 10, r: 8, p: 1 })}, 'admin')`.execute(
    t.app.db,
  );
  const client = await new TestClient(t.app).init();
  await client.signIn(email, password);
  return client;
}

describe.each(testDatabaseKinds())('editions on the demo data (%s)', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let current: number;
  let previous: number;
  const db = () => t.app.db as any;
  const examsOf = async (edition: number) =>
    (
      await sql<{
        id: number;
        round: number;
        category_id: number;
      }>`select id, round, category_id from exams where edition_id = ${edition} order by round, id`.execute(db())
    ).rows;

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind, { DEMO_DATA: 'true', LIST_CACHE_MB: '4' }));
    const editions = (await sql<{ id: number; year: number }>`select id, year from editions order by year desc`.execute(db())).rows;
    current = editions[0]!.id;
    previous = editions[1]!.id;
  }, 60_000);
  afterAll(async () => t?.close());

  it('starts in the newest edition not archived, listing every edition with the archived one marked by its status', async () => {
    const res = await admin.get<{ data: CurrentEditionData }>('/api/me/edition');
    expect(res.status).toBe(200);
    expect(res.body.data.current).toMatchObject({ id: current, year: 2026, status: 'judging' });
    expect(res.body.data.chosen).toBe(false);
    expect(res.body.data.editions.map((e) => [e.year, e.status])).toEqual([
      [2026, 'judging'],
      [2025, 'archived'],
    ]);
  });

  it('scopes the exam and contest lists, their exports and the dashboard to the current edition, and follows a switch', async () => {
    expect((await admin.get('/api/exams?per_page=50')).body.meta.total).toBe(12);
    expect((await admin.get('/api/contests?per_page=50')).body.meta.total).toBe(36);
    const all = (await sql<{ n: number }>`select count(*)::int as n from contests`.execute(db())).rows[0]!.n;
    expect(all).toBe(42);
    const csvRows = async (path: string) =>
      String((await admin.get(path)).body)
        .trim()
        .split('\n').length - 1;
    expect(await csvRows('/api/exams/export?format=csv')).toBe(12);
    const dashboard = (await admin.get<{ data: DashboardData }>('/api/dashboard')).body.data;
    expect(dashboard.totals.exams).toBe(DEMO_FIGURES.exams);
    expect(dashboard.rounds).toEqual(DEMO_FIGURES.rounds);
    expect((await admin.get('/api/results/overview')).body.data.exams).toHaveLength(12);

    const switched = await admin.put<{ data: CurrentEditionData }>('/api/me/edition', { edition_id: previous });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ current: { id: previous, status: 'archived' }, chosen: true });
    const exams = await admin.get('/api/exams?per_page=50');
    expect(exams.body.meta.total).toBe(2);
    expect(exams.body.data.every((e: any) => e.edition_id === previous)).toBe(true);
    expect((await admin.get('/api/contests?per_page=50')).body.meta.total).toBe(6);
    expect(await csvRows('/api/contests/export?format=csv')).toBe(6);
    const old = (await admin.get<{ data: DashboardData }>('/api/dashboard')).body.data;
    expect(old.totals.exams).toBe(2);
    expect(old.rounds.map((r) => r.graded)).toEqual([18, 9]);
    expect(old.latestContests).toHaveLength(6);
    expect((await admin.get('/api/results/overview')).body.data.exams).toHaveLength(2);

    const audit = await sql<{ n: number }>`select count(*)::int as n from audit_log where action = 'edition.choose'`.execute(db());
    expect(audit.rows[0]!.n).toBe(1);
    expect((await admin.put('/api/me/edition', { edition_id: current })).status).toBe(200);
    expect((await admin.get('/api/exams')).body.meta.total).toBe(12);
  });

  it('keeps the current edition per person: another admin stays in the default edition', async () => {
    const other = await secondAdmin(t, 'second.admin@example.com');
    expect((await admin.put('/api/me/edition', { edition_id: previous })).status).toBe(200);
    expect((await other.get('/api/me/edition')).body.data.current.id).toBe(current);
    expect((await other.get('/api/exams')).body.meta.total).toBe(12);
    expect((await admin.get('/api/exams')).body.meta.total).toBe(2);
    expect((await admin.put('/api/me/edition', { edition_id: current })).status).toBe(200);
  });

  it("follows a choice or an archive made by another server at the next list (the kept edition goes with the tables' versions)", async () => {
    const adminId = (await sql<{ id: number }>`select id from users where email = 'admin@example.com'`.execute(db())).rows[0]!.id;
    expect((await admin.get('/api/exams')).body.meta.total).toBe(12);
    // Another server on the same database writes the choice: this one has kept the current edition.
    await sql`insert into user_editions (user_id, edition_id) values (${adminId}, ${previous})
      on conflict (user_id) do update set edition_id = excluded.edition_id`.execute(db());
    expect((await admin.get('/api/exams')).body.meta.total).toBe(2);
    await sql`delete from user_editions where user_id = ${adminId}`.execute(db());
    expect((await admin.get('/api/exams')).body.meta.total).toBe(12);
    // The default edition changes when the current one is archived elsewhere (then restored).
    const [status] = (await sql<{ status: string }>`select status from editions where id = ${current}`.execute(db())).rows;
    await sql`update editions set status = 'archived' where id = ${current}`.execute(db());
    try {
      expect((await admin.get('/api/exams')).body.meta.total).toBe(14);
    } finally {
      await sql`update editions set status = ${status!.status} where id = ${current}`.execute(db());
    }
    expect((await admin.get('/api/exams')).body.meta.total).toBe(12);
  });

  it('refuses an unknown edition (422) and a malformed body', async () => {
    const unknown = await admin.put('/api/me/edition', { edition_id: 999_999 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ path: 'edition_id', messageKey: 'entities.edition.errors.unknown' });
    expect((await admin.put('/api/me/edition', {})).status).toBeGreaterThanOrEqual(400);
    expect((await admin.put('/api/me/edition', {})).status).toBeLessThan(500);
    expect((await admin.get('/api/me/edition')).body.data.current.id).toBe(current);
  });

  it("opens another edition's record by link and shows the archived exam's finalised results", async () => {
    const [round1, round2] = await examsOf(previous);
    expect((await admin.get(`/api/exams/${round1!.id}`)).status).toBe(200);
    const results = await admin.get(`/api/exams/${round2!.id}/results`);
    expect(results.status).toBe(200);
    expect(results.body.data.finalised).not.toBeNull();
    expect(results.body.data.entries).toHaveLength(3);
    expect(results.body.data.submitted).toBe(9);
    const first = await admin.get(`/api/exams/${round1!.id}/results`);
    expect(first.body.data.finalised).not.toBeNull();
    expect(first.body.data.entries).toHaveLength(6);
  });

  it('keeps an archived edition read-only: entity writes and judging and results writes answer 409 edition_archived, nothing changes', async () => {
    const [round1, round2] = await examsOf(previous);
    const before = await db().selectFrom('exams').selectAll().where('edition_id', '=', previous).orderBy('id').execute();
    const exam = (await admin.get(`/api/exams/${round1!.id}`)).body.data;
    const body = { name: 'Renamed', category_id: exam.category_id, round: 1, max_score: 100, criteria: exam.criteria };
    const put = await admin.put(`/api/exams/${round1!.id}`, body);
    expect(put.status).toBe(409);
    archivedError(put.body);
    const del = await admin.delete(`/api/exams/${round2!.id}`);
    expect(del.status).toBe(409);
    archivedError(del.body);
    const into = await admin.post('/api/exams', { ...body, name: 'Late exam', round: 2, parallel_panel: true, edition_id: previous });
    expect(into.status).toBe(409);
    archivedError(into.body);

    const status = await admin.post(`/api/exams/${round2!.id}/status`, { status: 'closed' });
    expect(status.status).toBe(409);
    archivedError(status.body);
    const contest = (await sql<{ id: number }>`select id from contests where edition_id = ${previous} order by id limit 1`.execute(db())).rows[0]!.id;
    const jury = (await sql<{ id: number }>`select id from juries order by id limit 1`.execute(db())).rows[0]!.id;
    const assign = await admin.post(`/api/exams/${round1!.id}/assignments`, { contest_id: contest, jury_id: jury });
    expect(assign.status).toBe(409);
    archivedError(assign.body);
    const grade = (
      await sql<{
        id: number;
        assignment_id: number;
        jury_id: number;
      }>`select id, assignment_id, jury_id from grades where exam_id = ${round1!.id} order by id limit 1`.execute(db())
    ).rows[0]!;
    const reopenGrade = await admin.post(`/api/grades/${grade.id}/reopen`, { reason: 'Checking a score from last year' });
    expect(reopenGrade.status).toBe(409);
    archivedError(reopenGrade.body);
    const juror = await jurorClient(t.app, grade.jury_id);
    const score = await juror.put(`/api/assignments/${grade.assignment_id}/grade`, { scores: { idea: 5 }, submit: false });
    expect(score.status).toBe(409);
    archivedError(score.body);
    const reopenExam = await admin.post(`/api/exams/${round2!.id}/reopen`, { reason: 'Recount last year' });
    expect(reopenExam.status).toBe(409);
    archivedError(reopenExam.body);

    const after = await db().selectFrom('exams').selectAll().where('edition_id', '=', previous).orderBy('id').execute();
    expect(after).toEqual(before);
    const locks = await sql<{ n: number }>`select count(*)::int as n from exam_locks where exam_id in (${round1!.id}, ${round2!.id})`.execute(db());
    expect(locks.rows[0]!.n).toBe(2);
    const graded = await sql<{
      n: number;
    }>`select count(*)::int as n from grades where status = 'submitted' and exam_id in (${round1!.id}, ${round2!.id})`.execute(db());
    expect(graded.rows[0]!.n).toBe(27);
  });

  it("gives new records the writer's current edition, and two editions' exams of one category and round coexist", async () => {
    const created = await admin.post('/api/editions', { name: 'Awards 2027', year: 2027, status: 'draft' });
    expect(created.status).toBe(201);
    const next = created.body.data.id as number;
    // A draft edition moves nobody into it: someone who never chose stays in the edition being judged.
    const bystander = await secondAdmin(t, 'bystander.admin@example.com');
    expect((await bystander.get('/api/me/edition')).body.data.current).toMatchObject({ id: current });
    expect((await admin.put('/api/me/edition', { edition_id: next })).status).toBe(200);
    expect((await admin.get('/api/exams')).body.meta.total).toBe(0);

    const [thisYear] = await examsOf(current);
    const body = { name: 'Same name as last year', category_id: thisYear!.category_id, round: 1, max_score: 100, criteria: CRITERIA };
    const exam = await admin.post('/api/exams', body);
    expect(exam.status).toBe(201);
    expect(exam.body.data.edition_id).toBe(next);
    expect((await admin.get('/api/exams')).body.meta.total).toBe(1);
    // The shortlist of next year's Round 1 goes to a Round 2 of next year, not this year's.
    const plan = await admin.post(`/api/exams/${exam.body.data.id}/shortlist`, { top: 1, dry_run: true });
    expect(plan.status).toBe(200);
    expect(plan.body.data).toMatchObject({ createdExam: true, targetExamId: null });
    // Deleting next year's exam leaves this year's exams of the category alone.
    expect((await admin.delete(`/api/exams/${exam.body.data.id}`)).status).toBe(204);
    expect((await examsOf(current)).length).toBe(12);

    // Another admin who chose 2026 keeps working there: their new exam lands in it.
    const other = await secondAdmin(t, 'third.admin@example.com');
    expect((await other.put('/api/me/edition', { edition_id: current })).status).toBe(200);
    const theirs = await other.post('/api/exams', { ...body, name: 'Parallel panel', parallel_panel: true });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.edition_id).toBe(current);
    expect((await other.delete(`/api/exams/${theirs.body.data.id}`)).status).toBe(204);
    expect((await admin.put('/api/me/edition', { edition_id: current })).status).toBe(200);
    // A draft stays out of the way; once open, the new edition is the default of whoever has not chosen one.
    const fresh = await secondAdmin(t, 'fourth.admin@example.com');
    expect((await fresh.get('/api/me/edition')).body.data.current.id).toBe(current);
    const draft = await admin.get(`/api/editions/${next}`);
    const { name, year } = draft.body.data as { name: string; year: number };
    const opened = await admin.put(`/api/editions/${next}`, { name, year, status: 'open' }, { 'if-match': String(draft.headers.etag) });
    expect(opened.status).toBe(200);
    expect((await fresh.get('/api/me/edition')).body.data.current.id).toBe(next);
    expect((await admin.delete(`/api/editions/${next}`)).status).toBe(204);
    expect((await fresh.get('/api/me/edition')).body.data.current.id).toBe(current);
  });

  it('attaches exams and contests without an edition to the current edition (an upgraded database)', async () => {
    const [exam] = await examsOf(current);
    await sql`update exams set edition_id = null where id = ${exam!.id}`.execute(db());
    await sql`update contests set edition_id = null where id in (select id from contests where edition_id = ${current} order by id limit 2)`.execute(db());
    expect((await admin.get('/api/contests')).body.meta.total).toBe(34);
    const attached = await attachUnassignedRecords(db(), t.app.entities);
    expect(attached).toEqual({ exams: 1, contests: 2 });
    expect((await admin.get('/api/contests')).body.meta.total).toBe(36);
    expect((await admin.get(`/api/exams/${exam!.id}`)).body.data.edition_id).toBe(current);
    expect(await attachUnassignedRecords(db(), t.app.entities)).toEqual({});
  });
});

describe.each(testDatabaseKinds())('editions on a database without any (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('leaves lists whole without editions, then attaches old records to a new edition of this year', async () => {
    const client = await new TestClient(t.app).init();
    await client.signIn();
    expect((await client.get('/api/me/edition')).body.data).toEqual({ current: null, chosen: false, editions: [] });
    const category = (
      await sql<{
        id: number;
      }>`insert into categories (name, description, slug, status) values ('Film', 'Film category description', 'film', 'active') returning id`.execute(t.app.db)
    ).rows[0]!.id;
    const exam = await client.post('/api/exams', { name: 'Before editions', category_id: category, round: 1, max_score: 100, criteria: CRITERIA });
    expect(exam.status).toBe(201);
    expect(exam.body.data.edition_id).toBeNull();
    expect((await client.get('/api/exams')).body.meta.total).toBe(1);
    const now = new Date('2031-03-01T00:00:00Z');
    expect(await attachUnassignedRecords(t.app.db, t.app.entities, now)).toEqual({ exams: 1 });
    const data = (await client.get<{ data: CurrentEditionData }>('/api/me/edition')).body.data;
    expect(data.current).toMatchObject({ name: '2031', year: 2031, status: 'open' });
    expect((await client.get('/api/exams')).body.data[0].edition_id).toBe(data.current!.id);
  });
});
