import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import id from '../../locales/id/common.json';
import { examNotFinal } from '../../src/features/judging/server/hooks/exam-not-final.js';
import type { DashboardData } from '../../src/features/judging/shared/dashboard-contract.js';
import type { ExamResultsData, ShortlistResult } from '../../src/features/results/shared/results-contract.js';
import { hookServices } from '../../src/server/operations/write-helpers.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('results on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let db: any;
  const exams: Record<string, { id: number; name: string; category_id: number }> = {};

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, { DEMO_DATA: 'true' }));
    db = t.app.db;
    const rows = await db.selectFrom('exams').select(['id', 'name', 'category_id', 'round']).orderBy('id').execute();
    // The demo data: one Round 1 and one Round 2 exam per category, in category order.
    exams.r1 = rows[0];
    exams.r2 = rows[1];
    exams.otherR1 = rows[2];
    exams.otherR2 = rows[3];
  });
  afterAll(async () => t?.close());

  const results = async (examId: number) => {
    const res = await client.get<{ data: ExamResultsData }>(`/api/exams/${examId}/results`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const statusOf = async (contestId: number) => {
    await db.updateTable('contests').set({ created_at: new Date() }).where('id', '=', contestId).execute();
    const { data } = (await client.get<{ data: DashboardData }>('/api/dashboard')).body;
    return data.latestContests.find((c) => c.id === contestId)?.status;
  };

  it("answers an exam's results whose means and counts the database reproduces", async () => {
    const data = await results(exams.r1!.id);
    expect(data.exam).toMatchObject({ id: exams.r1!.id, round: 1, max_score: 100 });
    const sums = await sql<{ contest_id: number; n: string; mean: string }>`select contest_id, count(*) as n, round(avg(total)::numeric, 2) as mean
      from grades where exam_id = ${exams.r1!.id} and status = 'submitted' group by contest_id`.execute(db);
    expect(sums.rows.length).toBeGreaterThan(2);
    for (const row of sums.rows) {
      const entry = data.entries.find((e) => e.contestId === Number(row.contest_id))!;
      expect(entry.submitted).toBe(Number(row.n));
      expect(entry.mean).toBe(Number(row.mean));
    }
    const ranked = data.entries.filter((e) => e.rank !== null);
    // Ranked by the exam's basis, the normalised score by default.
    expect(data.ranking).toBe('normalised');
    for (let i = 1; i < ranked.length; i++) expect(ranked[i]!.score!).toBeLessThanOrEqual(ranked[i - 1]!.score!);
    expect(ranked.every((e) => e.score === e.normalised)).toBe(true);
    expect(data.entries.map((e) => e.position)).toEqual(data.entries.map((_, i) => i + 1));
    expect(data.jurors.every((j) => j.name.length > 1)).toBe(true);
    expect(data.progress.at(-1)?.submitted).toBe(data.submitted);
  });

  it('refuses a results request for a missing exam, and a bad id', async () => {
    expect((await client.get('/api/exams/999999/results')).status).toBe(404);
    expect((await client.get('/api/exams/abc/results')).status).toBe(400);
  });

  it('shortlists the top N into Round 2: a dry run changes nothing, a second run changes nothing, graded entries are kept', async () => {
    const before = await results(exams.r2!.id);
    const graded = before.entries.filter((e) => e.submitted > 0).map((e) => e.contestId);
    const dry = await client.post<{ data: ShortlistResult }>(`/api/exams/${exams.r1!.id}/shortlist`, { top: 2, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dryRun: true, targetExamId: exams.r2!.id, createdExam: false });
    expect(await db.selectFrom('exam_entries').selectAll().where('exam_id', '=', exams.r2!.id).execute()).toEqual([]);

    const run = (await client.post<{ data: ShortlistResult }>(`/api/exams/${exams.r1!.id}/shortlist`, { top: 2 })).body.data;
    const r1 = await results(exams.r1!.id);
    expect(run.selected).toEqual(r1.entries.filter((e) => e.rank !== null && e.rank <= 2).map((e) => e.contestId));
    expect([...run.added, ...run.unchanged].sort()).toEqual([...run.selected].sort());
    expect(run.keptGraded).toEqual(graded.filter((c) => !run.selected.includes(c)).sort((a, b) => a - b));
    const again = (await client.post<{ data: ShortlistResult }>(`/api/exams/${exams.r1!.id}/shortlist`, { top: 2 })).body.data;
    expect(again).toMatchObject({ added: [], removed: [], selected: run.selected });

    const after = await results(exams.r2!.id);
    for (const c of [...run.selected, ...graded]) expect(after.entries.map((e) => e.contestId)).toContain(c);
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'results.shortlist').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entity: 'exam', entity_id: String(exams.r2!.id) });

    // The dashboard's judging status follows: shortlisted without a Round 2 grade → not graded R2;
    // graded in Round 1 and left out → graded (its judging is over).
    const waiting = run.added[0];
    if (waiting !== undefined) expect(await statusOf(waiting)).toBe('not_graded_r2');
    const left = r1.entries.find((e) => e.rank !== null && !run.selected.includes(e.contestId) && !graded.includes(e.contestId))!;
    expect(await statusOf(left.contestId)).toBe('graded');

    // A smaller rule removes the entries it no longer selects, unless graded in Round 2.
    const smaller = (await client.post<{ data: ShortlistResult }>(`/api/exams/${exams.r1!.id}/shortlist`, { min_score: 1000 })).body.data;
    expect(smaller.selected).toEqual([]);
    expect(smaller.removed).toEqual(run.added.slice().sort((a, b) => a - b));
  });

  it('creates the Round 2 exam as a draft with the criteria copied when it is missing', async () => {
    await db.deleteFrom('grades').where('exam_id', '=', exams.otherR2!.id).execute();
    await db.deleteFrom('assignments').where('exam_id', '=', exams.otherR2!.id).execute();
    await db.deleteFrom('exams').where('id', '=', exams.otherR2!.id).execute();
    const res = await client.post<{ data: ShortlistResult }>(`/api/exams/${exams.otherR1!.id}/shortlist`, { min_score: 70 });
    expect(res.body).toEqual(expect.objectContaining({ data: expect.anything() }));
    expect(res.body.data.createdExam).toBe(true);
    const created = await db.selectFrom('exams').selectAll().where('id', '=', res.body.data.targetExamId).executeTakeFirstOrThrow();
    const source = await db.selectFrom('exams').selectAll().where('id', '=', exams.otherR1!.id).executeTakeFirstOrThrow();
    expect(created).toMatchObject({ round: 2, category_id: source.category_id, criteria: source.criteria, max_score: source.max_score, status: 'draft' });
    expect(created.name).toContain('Round 2');
    const r1 = await results(exams.otherR1!.id);
    expect(res.body.data.selected).toEqual(r1.entries.filter((e) => e.score !== null && e.score >= 70).map((e) => e.contestId));
  });

  it("names a created Round 2 exam within the name's length when the Round 1 name is already at the limit", async () => {
    // Found by the property tests: a 150-character name plus ' (Round 2)' broke the column's check (500).
    const rows: Array<{ id: number; round: number; category_id: number }> = await db
      .selectFrom('exams')
      .select(['id', 'round', 'category_id'])
      .orderBy('id')
      .execute();
    const used = [exams.r1!.category_id, exams.otherR1!.category_id];
    const r1 = rows.find((r) => r.round === 1 && !used.includes(r.category_id))!;
    const r2 = rows.find((r) => r.round === 2 && r.category_id === r1.category_id)!;
    await db.deleteFrom('grades').where('exam_id', '=', r2.id).execute();
    await db.deleteFrom('assignments').where('exam_id', '=', r2.id).execute();
    await db.deleteFrom('exams').where('id', '=', r2.id).execute();
    const long = 'Final jury of the year '.repeat(7).slice(0, 150);
    await db.updateTable('exams').set({ name: long }).where('id', '=', r1.id).execute();
    const res = await client.post<{ data: ShortlistResult }>(`/api/exams/${r1.id}/shortlist`, { min_score: 0 });
    expect(res.status).toBe(200);
    const created = await db.selectFrom('exams').select('name').where('id', '=', res.body.data.targetExamId).executeTakeFirstOrThrow();
    expect(created.name.length).toBeLessThanOrEqual(150);
    expect(created.name.endsWith(' (Round 2)')).toBe(true);
    expect(created.name.startsWith(long.slice(0, 100))).toBe(true);
  });

  it('refuses a shortlist from a Round 2 exam (409) and an ambiguous rule (422)', async () => {
    expect((await client.post(`/api/exams/${exams.r2!.id}/shortlist`, { top: 5 })).status).toBe(409);
    expect((await client.post(`/api/exams/${exams.r1!.id}/shortlist`, { top: 5, min_score: 50 })).status).toBe(422);
    expect((await client.post(`/api/exams/${exams.r1!.id}/shortlist`, {})).status).toBe(422);
    expect((await client.post(`/api/exams/${exams.r1!.id}/shortlist`, { top: 0 })).status).toBe(422);
  });

  it("gives awards from the final round's ranking and records an admin's override with its reason", async () => {
    const awards = await db.selectFrom('award_categories').selectAll().orderBy('rank').execute();
    const data = await results(exams.r2!.id);
    const first = data.entries[0]!;
    expect(first.award?.name).toBe('Grand Prix');
    for (const e of data.entries.slice(1).filter((x) => x.score !== null && x.score >= 85)) expect(e.award?.name).toBe('Gold');
    expect((await results(exams.r1!.id)).entries.every((e) => e.award === null)).toBe(true);

    const merit = awards.find((a: any) => a.name === 'Merit');
    expect((await client.put(`/api/exams/${exams.r2!.id}/awards/${first.contestId}`, { award_category_id: merit.id, reason: 'x' })).status).toBe(422);
    const res = await client.put<{ data: ExamResultsData }>(`/api/exams/${exams.r2!.id}/awards/${first.contestId}`, {
      award_category_id: merit.id,
      reason: 'Late disqualification of a claim',
    });
    expect(res.status).toBe(200);
    const changed = res.body.data.entries.find((e) => e.contestId === first.contestId)!;
    expect(changed).toMatchObject({
      award: { name: 'Merit' },
      ruleAward: { name: 'Grand Prix' },
      awardOverridden: true,
      awardReason: 'Late disqualification of a claim',
    });
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'results.award_override').executeTakeFirstOrThrow();
    expect(typeof audit.details === 'string' ? JSON.parse(audit.details) : audit.details).toMatchObject({
      contest_id: first.contestId,
      reason: 'Late disqualification of a claim',
      after: { award_category_id: merit.id },
    });
    const back = await client.request<{ data: ExamResultsData }>('DELETE', `/api/exams/${exams.r2!.id}/awards/${first.contestId}`, {
      reason: 'Claim verified after all',
    });
    expect(back.status).toBe(200);
    expect(back.body.data.entries.find((e) => e.contestId === first.contestId)).toMatchObject({ award: { name: 'Grand Prix' }, awardOverridden: false });
  });

  it('finalises an exam: results are locked, later writes are 409 naming the exam, reopening needs a reason', async () => {
    const exam = exams.r2!;
    const before = await results(exam.id);
    const open = await client.post(`/api/exams/${exam.id}/finalise`);
    expect(open.status).toBe(409);
    expect(open.body.message).toContain('close it before finalising');
    expect((await client.post(`/api/exams/${exam.id}/status`, { status: 'closed' })).status).toBe(200);
    const fin = await client.post<{ data: ExamResultsData }>(`/api/exams/${exam.id}/finalise`);
    expect(fin.status).toBe(200);
    expect(fin.body.data.finalised).not.toBeNull();
    expect((await client.post(`/api/exams/${exam.id}/finalise`)).status).toBe(409);

    const contest = before.entries[0]!.contestId;
    expect((await db.selectFrom('exams').select('status').where('id', '=', exam.id).executeTakeFirstOrThrow()).status).toBe('final');
    const graders = (await db.selectFrom('grades').select('jury_id').where('exam_id', '=', exam.id).where('contest_id', '=', contest).execute()).map(
      (g: any) => g.jury_id,
    );
    const jury = await db.selectFrom('juries').select('id').where('round', '=', 2).where('id', 'not in', graders).executeTakeFirstOrThrow();
    await db
      .insertInto('grades')
      .values({ contest_id: contest, jury_id: jury.id, exam_id: exam.id, score: 1, total: 1, status: 'submitted', submitted_at: new Date() })
      .execute();
    const locked = await results(exam.id);
    expect(locked.entries).toEqual(fin.body.data.entries);

    const override = await client.put(`/api/exams/${exam.id}/awards/${contest}`, { award_category_id: null, reason: 'Try after final' });
    expect(override.status).toBe(409);
    expect(override.body.message).toContain(exam.name);
    expect((await client.post(`/api/exams/${exams.r1!.id}/shortlist`, { top: 3 })).status).toBe(409);
    await expect(examNotFinal({ ...hookServices(db), entity: null as never, operation: 'create', data: { exam_id: exam.id }, db })).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining(exam.name),
    });
    await expect(
      examNotFinal({ ...hookServices(db), entity: null as never, operation: 'create', data: { exam_id: exams.r1!.id }, db }),
    ).resolves.toBeUndefined();

    expect((await client.post(`/api/exams/${exam.id}/reopen`, {})).status).toBe(422);
    const reopened = await client.post<{ data: ExamResultsData }>(`/api/exams/${exam.id}/reopen`, { reason: 'A juror grade was entered late' });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data.finalised).toBeNull();
    expect(reopened.body.data.submitted).toBe(before.submitted + 1);
    expect(reopened.body.data.exam.status).toBe('closed');
    const actions = (
      await db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('entity', '=', 'exam')
        .where('entity_id', '=', String(exam.id))
        .orderBy('id')
        .execute()
    ).map((a: any) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['results.finalise', 'results.reopen']));
    await db.deleteFrom('grades').where('exam_id', '=', exam.id).where('score', '=', 1).execute();
  });

  it('exports results as CSV and XLSX that parse back to the results, per juror and anonymised on request, headers in the chosen language', async () => {
    const exam = exams.r1!;
    const data = await results(exam.id);
    const expected = data.entries.map((e) => [
      e.position,
      e.rank,
      e.contestId,
      e.campaign,
      e.customer,
      e.company,
      e.submitted,
      e.assigned,
      e.mean,
      e.trimmedMean,
      e.normalised,
      e.score,
      e.spread,
      e.rawGrades,
      e.moderation,
      e.award?.name ?? null,
      e.awardOverridden,
      e.awardOverridden ? (e.ruleAward?.name ?? null) : null,
      e.awardReason,
    ]);

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results/export?format=csv`,
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows: string[][] = parse(csv.body, { bom: true });
    expect(rows[0]).toEqual([
      'Order',
      'Rank',
      'Contest ID',
      'Campaign',
      'Submittor',
      'Company',
      'Grades Submitted',
      'Grades Assigned',
      'Mean',
      'Trimmed Mean',
      'Normalised Score',
      'Final Score (Normalised Score)',
      'Spread',
      'Raw Grades',
      'Moderation',
      'Award',
      'Award Changed',
      'Award by Rule',
      'Reason for Change',
    ]);
    const fromCsv = (cell: string, i: number) =>
      cell === '' ? null : [14, 16].includes(i) ? cell === 'TRUE' : [3, 4, 5, 15, 17, 18].includes(i) ? cell : Number(cell);
    expect(rows.slice(1).map((row) => row.map(fromCsv))).toEqual(expected);

    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results/export?format=xlsx&lang=id`,
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cells: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => {
      const values = row.values as unknown[];
      cells.push(Array.from({ length: expected[0]!.length }, (_v, i) => values[i + 1] ?? null));
    });
    expect(cells[0]).toEqual(
      [
        'position',
        'rank',
        'contest',
        'campaign',
        'customer',
        'company',
        'submitted',
        'assigned',
        'mean',
        'trimmedMean',
        'normalised',
        'score',
        'spread',
        'rawGrades',
        'moderation',
        'award',
        'awardOverridden',
        'ruleAward',
        'overrideReason',
      ].map((k) => (k === 'score' ? `${id.results.columns.score} (${id.results.basis.normalised})` : (id.results.columns as Record<string, string>)[k])),
    );
    expect(cells.slice(1)).toEqual(expected);

    const jurors = await t.app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results/export?per=juror&anonymise=true`,
      headers: { authorization: `Bearer ${client.token}` },
    });
    const jurorRows: string[][] = parse(jurors.body, { bom: true });
    const criteria = (await db.selectFrom('exams').select('criteria').where('id', '=', exam.id).executeTakeFirstOrThrow()).criteria as Array<{ label: string }>;
    expect(criteria.length).toBeGreaterThan(0);
    expect(jurorRows[0]).toEqual([
      'Order',
      'Rank',
      'Entry',
      'Juror',
      'Score',
      'Normalised Score',
      'Raw Score Kept',
      ...criteria.map((c) => c.label),
      'Remarks',
      'Reopen Reason',
      'Award',
      'Award Changed',
      'Award by Rule',
      'Reason for Change',
    ]);
    expect(jurorRows).toHaveLength(1 + data.submitted);
    for (const e of data.entries.filter((x) => x.campaign)) expect(jurors.body).not.toContain(e.campaign!);
    expect(jurorRows[1]![2]).toBe('E-001');
  });

  it("answers the dashboard's charts over every exam: final scores per exam, juror leniency, progress", async () => {
    const res = await client.get<{ data: import('../../src/features/results/shared/results-contract.js').ResultsOverview }>('/api/results/overview');
    expect(res.status).toBe(200);
    const r1 = await results(exams.r1!.id);
    expect(res.body.data.exams.find((e) => e.examId === exams.r1!.id)!.scores).toEqual(r1.entries.filter((e) => e.score !== null).map((e) => e.score));
    // Every submitted grade of the exams the charts cover (the admin's current edition).
    const covered = res.body.data.exams.map((e) => e.examId);
    expect(covered).toContain(exams.r1!.id);
    const total = (await sql<{ n: string }>`select count(*) as n from grades where status = 'submitted' and exam_id in (${sql.join(covered)})`.execute(db))
      .rows[0]!.n;
    expect(res.body.data.progress.at(-1)!.submitted).toBe(Number(total));
    expect(res.body.data.jurors.reduce((sum, j) => sum + j.grades, 0)).toBe(Number(total));
  });

  it("answers a contest's judging: its status and its row in each exam of its category", async () => {
    const r1 = await results(exams.r1!.id);
    const entry = r1.entries.find((e) => e.submitted > 0)!;
    const res = await client.get<{ data: import('../../src/features/results/shared/results-contract.js').ContestJudging }>(
      `/api/contests/${entry.contestId}/judging`,
    );
    expect(res.status).toBe(200);
    const row = res.body.data.exams.find((e) => e.examId === exams.r1!.id)!;
    expect(row.entry).toEqual(entry);
    expect(row.jurors).toHaveLength(entry.submitted);
    const { data } = (await client.get<{ data: DashboardData }>('/api/dashboard')).body;
    const shown = data.latestContests.find((c) => c.id === entry.contestId);
    if (shown) expect(res.body.data.status).toBe(shown.status);
    expect((await client.get('/api/contests/999999/judging')).status).toBe(404);
  });

  it('is for admins only', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/exams/${exams.r1!.id}/results` });
    expect(anonymous.statusCode).toBe(401);
  });
});
