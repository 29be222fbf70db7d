import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardData } from '../../src/features/judging/shared/dashboard-contract.js';
import type { ExamResultsData, ShortlistResult } from '../../src/features/results/shared/results-contract.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { jurorClient } from '../helpers/judging-fixture.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

/**
 * Issue 11's walkthrough on the demo data, as an admin and the jurors go through it: Round 1 is
 * scored, its results table is reproduced the way a spreadsheet would (from the raw grades, with
 * the formulas written out here rather than imported), the top 5 go to Round 2, Round 2 is scored
 * by jurors through their own calls and finalised, the results are exported, and the dashboard
 * follows each step.
 */

/** Rounded as the results are: once, at the end, to 2 decimals. */
const r2 = (x: number) => Math.round((x + Number.EPSILON) * 100) / 100;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));

interface Row {
  contest_id: number;
  jury_id: number;
  total: number;
}

/** The spreadsheet: every figure of an exam's results table from its submitted grades. */
function spreadsheet(rows: Row[], max: number) {
  const all = rows.map((r) => r.total);
  const examMean = mean(all);
  const examSd = sd(all);
  const byJuror = new Map<number, number[]>();
  for (const r of rows) byJuror.set(r.jury_id, [...(byJuror.get(r.jury_id) ?? []), r.total]);
  const normalised = (r: Row) => {
    const own = byJuror.get(r.jury_id)!;
    if (own.length < 3 || sd(own) === 0) return r.total; // too few grades or no spread: raw
    return Math.min(max, Math.max(0, examMean + ((r.total - mean(own)) / sd(own)) * examSd));
  };
  const byEntry = new Map<number, Row[]>();
  for (const r of rows) byEntry.set(r.contest_id, [...(byEntry.get(r.contest_id) ?? []), r]);
  const entries = [...byEntry].map(([contestId, grades]) => {
    const totals = grades.map((g) => g.total);
    const trimmed = totals.length >= 5 ? (totals.reduce((s, x) => s + x, 0) - Math.max(...totals) - Math.min(...totals)) / (totals.length - 2) : mean(totals);
    return {
      contestId,
      submitted: totals.length,
      mean: r2(mean(totals)),
      trimmedMean: r2(trimmed),
      normalised: r2(mean(grades.map(normalised))),
      spread: r2(Math.max(...totals) - Math.min(...totals)),
    };
  });
  // Competition ranking on the final score, the normalised score (the exams' default basis), at 2 decimals: 1, 1, 3.
  for (const e of entries) (e as typeof e & { rank: number }).rank = 1 + entries.filter((o) => o.normalised > e.normalised).length;
  return entries as Array<(typeof entries)[number] & { rank: number }>;
}

describe.each(testDatabaseKinds())('the results walkthrough on the demo data, %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let db: any;
  let r1: { id: number; category_id: number };
  let r2exam: { id: number; name: string };

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, { DEMO_DATA: 'true' }));
    db = t.app.db;
    const rows = await db.selectFrom('exams').select(['id', 'name', 'category_id', 'round']).orderBy('id').execute();
    r1 = rows.find((e: any) => e.round === 1);
    r2exam = rows.find((e: any) => e.round === 2 && e.category_id === r1.category_id);
  });
  afterAll(async () => t?.close());

  const results = async (examId: number) => {
    const res = await client.get<{ data: ExamResultsData }>(`/api/exams/${examId}/results`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const dashboard = async () => (await client.get<{ data: DashboardData }>('/api/dashboard')).body.data;
  const submittedGrades = async (examId: number) =>
    (await sql<Row>`select contest_id, jury_id, total from grades where exam_id = ${examId} and status = 'submitted' order by id`.execute(db)).rows.map(
      (r) => ({
        contest_id: Number(r.contest_id),
        jury_id: Number(r.jury_id),
        total: Number(r.total),
      }),
    );
  /** A contest's judging status as the dashboard's latest contests show it. */
  const statusOf = async (contestId: number) => {
    await db.updateTable('contests').set({ created_at: new Date() }).where('id', '=', contestId).execute();
    return (await dashboard()).latestContests.find((c) => c.id === contestId)?.status;
  };

  it('reproduces the Round 1 results table from the raw grades, as a spreadsheet would', async () => {
    const data = await results(r1.id);
    const sheet = spreadsheet(await submittedGrades(r1.id), data.exam.max_score);
    expect(sheet.length).toBeGreaterThan(3);
    const graded = data.entries.filter((e) => e.submitted > 0);
    expect(graded.map((e) => e.contestId).sort((a, b) => a - b)).toEqual(sheet.map((e) => e.contestId).sort((a, b) => a - b));
    for (const row of sheet) {
      const entry = data.entries.find((e) => e.contestId === row.contestId)!;
      expect({
        contestId: entry.contestId,
        submitted: entry.submitted,
        mean: entry.mean,
        trimmedMean: entry.trimmedMean,
        normalised: entry.normalised,
        spread: entry.spread,
        rank: entry.rank,
      }).toEqual(row);
    }
    // Entries nobody graded come last, without a rank.
    const ungraded = data.entries.filter((e) => e.submitted === 0);
    expect(ungraded.every((e) => e.rank === null)).toBe(true);
    expect(data.entries.slice(-ungraded.length || data.entries.length).every((e) => ungraded.length === 0 || e.submitted === 0)).toBe(true);
  });

  let shortlisted: number[] = [];
  let lastJuror: { api: TestClient; assignment: number; scores: Record<string, number> } | undefined;
  it('shortlists the top 5 into Round 2, and the dashboard shows them waiting for Round 2', async () => {
    const before = await dashboard();
    const data = await results(r1.id);
    const top = data.entries.filter((e) => e.rank !== null && e.rank <= 5).map((e) => e.contestId);
    const dry = await client.post<{ data: ShortlistResult }>(`/api/exams/${r1.id}/shortlist`, { top: 5, dry_run: true });
    expect(dry.body.data).toMatchObject({ dryRun: true, targetExamId: r2exam.id, selected: top });
    const run = await client.post<{ data: ShortlistResult }>(`/api/exams/${r1.id}/shortlist`, { top: 5 });
    expect(run.status).toBe(200);
    expect(run.body.data.selected).toEqual(top);
    shortlisted = top;
    const r2results = await results(r2exam.id);
    for (const c of top) expect(r2results.entries.map((e) => e.contestId)).toContain(c);
    const waiting = run.body.data.added;
    expect(waiting.length).toBeGreaterThan(0);
    for (const c of waiting) expect(await statusOf(c)).toBe('not_graded_r2');
    expect((await dashboard()).rounds).toEqual(before.rounds);
  });

  it('moves the dashboard as Round 2 jurors score the shortlisted entries through their own calls', async () => {
    const newcomers = (await results(r2exam.id)).entries.filter((e) => shortlisted.includes(e.contestId) && e.submitted === 0).map((e) => e.contestId);
    expect(newcomers.length).toBeGreaterThan(0);
    const plan = await client.post(`/api/exams/${r2exam.id}/auto-assign`, { per_entry: 3, dry_run: false });
    expect(plan.status).toBe(200);
    const jurors = [...new Set<number>(plan.body.data.planned.filter((p: any) => newcomers.includes(p.contest_id)).map((p: any) => p.jury_id))];
    expect(jurors.length).toBeGreaterThanOrEqual(3);
    const criteria: Array<{ key: string; maximum: number }> = (
      await db.selectFrom('exams').select('criteria').where('id', '=', r2exam.id).executeTakeFirstOrThrow()
    ).criteria;

    const graded = (await dashboard()).rounds[1].graded;
    let written = 0;
    for (const [n, juror] of jurors.entries()) {
      const api = await jurorClient(t.app, juror);
      // Jurors never see the contest's id (blind codes): the test reads which entry each assignment is.
      const mine: Array<{ id: number; contest_id: number }> = await db
        .selectFrom('assignments')
        .select(['id', 'contest_id'])
        .where('exam_id', '=', r2exam.id)
        .where('jury_id', '=', juror)
        .execute();
      const contestOf = new Map<number, number>(mine.map((r) => [Number(r.id), Number(r.contest_id)]));
      const work = (await api.get('/api/jury/assignments')).body.data.assignments.filter(
        (a: any) => a.exam_id === r2exam.id && newcomers.includes(contestOf.get(a.id)!),
      );
      for (const a of work) {
        const contestId = contestOf.get(a.id)!;
        const scores = Object.fromEntries(criteria.map((c, i) => [c.key, Math.min(c.maximum, 5 + ((n + i + contestId) % 5))]));
        const res = await api.put(`/api/assignments/${a.id}/grade`, { scores, remarks: 'Scored in the walkthrough', submit: true });
        expect(res.status).toBe(200);
        lastJuror = { api, assignment: a.id, scores };
        written++;
      }
    }
    expect(written).toBeGreaterThanOrEqual(newcomers.length * 3);
    expect((await dashboard()).rounds[1].graded).toBe(graded + written);
    for (const c of newcomers) expect(await statusOf(c)).toBe('graded');

    // The Round 2 table still follows the spreadsheet once the new grades are in.
    const data = await results(r2exam.id);
    const sheet = spreadsheet(await submittedGrades(r2exam.id), data.exam.max_score);
    for (const row of sheet) expect(data.entries.find((e) => e.contestId === row.contestId)).toMatchObject(row);
  });

  it('finalises Round 2: grades are then refused, and the export parses back to the locked results', async () => {
    expect((await client.post(`/api/exams/${r2exam.id}/status`, { status: 'closed' })).status).toBe(200);
    const fin = await client.post<{ data: ExamResultsData }>(`/api/exams/${r2exam.id}/finalise`);
    expect(fin.status).toBe(200);
    expect(fin.body.data.exam.status).toBe('final');
    expect(fin.body.data.entries.find((e) => e.award !== null)).toBeDefined();
    const late = await lastJuror!.api.put(`/api/assignments/${lastJuror!.assignment}/grade`, { scores: lastJuror!.scores, submit: false });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain(r2exam.name);
    expect(await results(r2exam.id)).toEqual(fin.body.data);

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/exams/${r2exam.id}/results/export?format=csv`,
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(csv.statusCode).toBe(200);
    const rows: string[][] = parse(csv.body, { bom: true });
    const header = rows[0]!;
    const at = (name: string) => header.indexOf(name);
    expect(rows).toHaveLength(1 + fin.body.data.entries.length);
    for (const [i, entry] of fin.body.data.entries.entries()) {
      const row = rows[i + 1]!;
      expect(Number(row[at('Contest ID')])).toBe(entry.contestId);
      expect(row[at('Trimmed Mean')]).toBe(entry.trimmedMean === null ? '' : String(entry.trimmedMean));
      expect(row[at('Award')]).toBe(entry.award?.name ?? '');
    }
    const audit = await db.selectFrom('audit_log').select('action').where('entity', '=', 'exam').where('entity_id', '=', String(r2exam.id)).execute();
    expect(audit.map((a: any) => a.action)).toEqual(expect.arrayContaining(['results.shortlist', 'results.finalise']));
  });
});
