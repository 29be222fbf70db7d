import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExamModeration, ExamResultsData, ShortlistResult } from '../../src/features/results/shared/results-contract.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { addCategory, addContests, addCustomer, addJuror, CRITERIA, jurorClient } from '../helpers/judging-fixture.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

/**
 * Issue 26's results: the ranking basis (rank, shortlist, awards and exports follow the exam's
 * `ranking`), the fallback for a juror with too few grades, moderation (the flagged entries with
 * every juror's per-criterion scores and remarks, reopening a grade with a required reason), the
 * exports' remarks, per-criterion scores and override marks, finalising an open exam, and what a
 * shortlist says it moved.
 *
 * The panel: six entries whose order the fair jurors F1 and F2 agree on (e1 90 > e2 85 > … > e6 65,
 * both grade all six); the lenient juror L grades e2, e4, e6 ten points above it, the harsh juror H
 * grades e1, e3, e5 thirty points below it (tests/unit/ranking-fairness.test.ts works the figures
 * out). By the mean, L lifts e2, e4 and e6; by the normalised score, the fair order stands.
 */

const QUALITY = [90, 85, 80, 75, 70, 65];
const HARSH_REMARK = '=HYPERLINK("http://attacker.test","Too derivative")';

describe.each(testDatabaseKinds())('results of a season on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let db: any;
  let examId: number;
  let entries: number[];
  let jurors: { f1: number; f2: number; lenient: number; harsh: number; late: number };
  const awards: Record<string, number> = {};

  const results = async () => {
    const res = await client.get<{ data: ExamResultsData }>(`/api/exams/${examId}/results`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const order = (data: ExamResultsData) => data.entries.filter((e) => e.rank !== null).map((e) => entries.indexOf(e.contestId) + 1);
  const awardOf = (data: ExamResultsData) =>
    data.entries.filter((e) => e.award).map((e) => [entries.indexOf(e.contestId) + 1, e.award!.name] as [number, string]);
  const shortlistPreview = async (body: Record<string, unknown>) =>
    (await client.post<{ data: ShortlistResult }>(`/api/exams/${examId}/shortlist`, { ...body, dry_run: true })).body.data;
  const download = async (query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/exams/${examId}/results/export?${query}`,
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(res.statusCode).toBe(200);
    return res;
  };
  const setRanking = (ranking: string) => db.updateTable('exams').set({ ranking }).where('id', '=', examId).execute();

  /** A submitted grade whose per-criterion scores give `total` (idea = total / 10, craft = total / 20). */
  async function grade(entry: number, juryId: number, total: number, remarks: string | null = null) {
    const assignment = (
      await sql<{
        id: number;
      }>`insert into assignments (exam_id, contest_id, jury_id, status) values (${examId}, ${entry}, ${juryId}, 'submitted') returning id`.execute(db)
    ).rows[0]!.id;
    const scores = JSON.stringify({ idea: total / 10, craft: total / 20 });
    await sql`insert into grades (assignment_id, exam_id, contest_id, jury_id, scores, total, score, remarks, status, submitted_at)
      values (${assignment}, ${examId}, ${entry}, ${juryId}, ${scores}::jsonb, ${total}, ${Math.round(total)}, ${remarks}, 'submitted', now())`.execute(db);
  }

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
    db = t.app.db;
    const category = await addCategory(t.app, 'Season Results');
    const customer = await addCustomer(t.app, 1, 'Acme Sdn Bhd');
    entries = await addContests(t.app, customer, category, 6);
    jurors = {
      f1: await addJuror(t.app, 1, 'Fair One'),
      f2: await addJuror(t.app, 2, 'Fair Two'),
      lenient: await addJuror(t.app, 3, 'Lenient Co'),
      harsh: await addJuror(t.app, 4, 'Harsh Co'),
      late: await addJuror(t.app, 5, 'Late Co'),
    };
    examId = (
      await sql<{ id: number }>`insert into exams (name, category_id, round, max_score, criteria, status)
        values ('Season Round 1', ${category}, 1, 100, ${JSON.stringify(CRITERIA)}::jsonb, 'open') returning id`.execute(db)
    ).rows[0]!.id;
    for (const [i, q] of QUALITY.entries()) {
      await grade(entries[i]!, jurors.f1, q, i === 0 ? 'Clear, brave idea' : null);
      await grade(entries[i]!, jurors.f2, q);
      if (i % 2 === 1) await grade(entries[i]!, jurors.lenient, q + 10);
      else await grade(entries[i]!, jurors.harsh, q - 30, i === 2 ? HARSH_REMARK : null);
    }
    for (const [name, rank, top_n] of [
      ['Grand Prix', 1, 1],
      ['Gold', 2, 2],
    ] as const) {
      awards[name] = (
        await sql<{ id: number }>`insert into award_categories (name, rank, rule, top_n) values (${name}, ${rank}, 'top_n', ${top_n}) returning id`.execute(db)
      ).rows[0]!.id;
    }
  });
  afterAll(async () => t?.close());

  it('ranks by the normalised score by default: the lenient and the harsh juror change neither rank, shortlist nor awards', async () => {
    const data = await results();
    expect(data.ranking).toBe('normalised');
    expect(order(data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(data.entries.map((e) => e.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(data.entries.map((e) => e.score)).toEqual(data.entries.map((e) => e.normalised));
    expect(data.jurors.every((j) => j.raw === null)).toBe(true);
    expect(awardOf(data)).toEqual([
      [1, 'Grand Prix'],
      [2, 'Gold'],
      [3, 'Gold'],
    ]);
    expect((await shortlistPreview({ top: 3 })).selected).toEqual(entries.slice(0, 3));
    // A minimum score compares the final score of the basis: the third entry's normalised score takes exactly the first three.
    expect((await shortlistPreview({ min_score: data.entries[2]!.score! })).selected).toEqual(entries.slice(0, 3));
  });

  it('ranks by the mean or the trimmed mean when the exam says so, and the lenient juror then lifts their entries', async () => {
    await setRanking('mean');
    const byMean = await results();
    expect(byMean.ranking).toBe('mean');
    expect(order(byMean)).toEqual([2, 1, 4, 3, 6, 5]);
    expect(byMean.entries.map((e) => e.score)).toEqual(byMean.entries.map((e) => e.mean));
    expect(awardOf(byMean)).toEqual([
      [2, 'Grand Prix'],
      [1, 'Gold'],
      [4, 'Gold'],
    ]);
    expect((await shortlistPreview({ top: 3 })).selected).toEqual([entries[1], entries[0], entries[3]]);
    const csv: string[][] = parse((await download('format=csv')).body, { bom: true });
    expect(csv[0]).toContain('Final Score (Mean)');
    const scoreColumn = csv[0]!.indexOf('Final Score (Mean)');
    expect(csv.slice(1).map((row) => Number(row[scoreColumn]))).toEqual(byMean.entries.map((e) => e.mean));

    await setRanking('trimmed_mean');
    const byTrimmed = await results();
    expect(byTrimmed.ranking).toBe('trimmed_mean');
    expect(byTrimmed.entries.map((e) => e.score)).toEqual(byTrimmed.entries.map((e) => e.trimmedMean));
    await setRanking('normalised');
    const normalised = await results();
    expect(order(normalised)).toEqual([1, 2, 3, 4, 5, 6]);
    const xlsx = await download('format=xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const header = (workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain('Final Score (Normalised Score)');
  });

  it('says which juror falls back to raw totals, on which entries, and exports it', async () => {
    // A juror with one grade cannot be normalised: their total counts raw, and the results say so.
    await grade(entries[5]!, jurors.late, 60);
    const data = await results();
    expect(data.jurors.find((j) => j.jurorId === jurors.late)).toMatchObject({ grades: 1, raw: 'few_grades' });
    const e6 = data.entries.find((e) => e.contestId === entries[5])!;
    expect(e6.rawGrades).toBe(1);
    expect(e6.grades.find((g) => g.jurorId === jurors.late)).toMatchObject({ total: 60, normalised: 60, raw: 'few_grades' });
    expect(data.entries.filter((e) => e.contestId !== entries[5]).every((e) => e.rawGrades === 0)).toBe(true);
    const perJuror: string[][] = parse((await download('format=csv&per=juror')).body, { bom: true });
    const raw = perJuror[0]!.indexOf('Raw Score Kept');
    expect(perJuror.filter((row) => row[raw] === 'few_grades')).toHaveLength(1);
  });

  it('lists the flagged entries for moderation with every juror per-criterion scores and remarks side by side', async () => {
    // Judging's blind code of an entry a juror was shown: admins see it beside the contest id.
    await sql`insert into entry_codes (exam_id, contest_id, code) values (${examId}, ${entries[2]}, 'R1-7K3QX')`.execute(db);
    const res = await client.get<{ data: ExamModeration }>(`/api/exams/${examId}/moderation`);
    expect(res.status).toBe(200);
    const m = res.body.data;
    expect(m.criteria.map((c) => c.label)).toEqual(CRITERIA.map((c) => c.label));
    expect(m.moderationThreshold).toBe(25);
    // e1, e3 and e5 have a spread of 30 (the harsh juror); the lenient juror's 10 points stay under the threshold.
    expect(m.entries.map((e) => entries.indexOf(e.contestId) + 1)).toEqual([1, 3, 5]);
    const e1 = m.entries[0]!;
    expect(m.codes).toBe(true);
    // Every entry shown has its code: judging gives one to an assigned entry that had none when it is first read.
    expect(e1).toMatchObject({ flagged: true, spread: 30, code: expect.stringMatching(/^R1-[A-Z0-9]{5}$/) });
    expect(m.entries[1]).toMatchObject({ contestId: entries[2], code: 'R1-7K3QX' });
    expect(e1.grades.map((g) => [g.jurorId, g.total, g.scores, g.remarks])).toEqual([
      [jurors.f1, 90, { idea: 9, craft: 4.5 }, 'Clear, brave idea'],
      [jurors.f2, 90, { idea: 9, craft: 4.5 }, null],
      [jurors.harsh, 60, { idea: 6, craft: 3 }, null],
    ]);
    expect(m.entries[1]!.grades.find((g) => g.jurorId === jurors.harsh)!.remarks).toBe(HARSH_REMARK);
    expect(e1.grades.every((g) => g.juror.startsWith('Juror '))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/exams/${examId}/moderation` })).statusCode).toBe(401);
  });

  it('reopens a grade only with a reason (422 reason_required), stores and audits the reason, and the juror can submit again', async () => {
    const moderation = (await client.get<{ data: ExamModeration }>(`/api/exams/${examId}/moderation`)).body.data;
    const target = moderation.entries[0]!.grades.find((g) => g.jurorId === jurors.harsh)!;
    const auditCount = async () => Number((await sql<{ n: string }>`select count(*) as n from audit_log where action = 'grade.reopen'`.execute(db)).rows[0]!.n);
    const before = await auditCount();
    for (const body of [undefined, {}, { reason: '  ' }, { reason: 'no' }]) {
      const refused = await client.post(`/api/grades/${target.gradeId}/reopen`, body);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({ path: 'reason', keyword: 'reason_required' });
    }
    expect(await auditCount()).toBe(before);
    expect((await db.selectFrom('grades').select('status').where('id', '=', target.gradeId).executeTakeFirstOrThrow()).status).toBe('submitted');

    const reason = 'Scores far below the panel: please check the scoring guide';
    const reopened = await client.post(`/api/grades/${target.gradeId}/reopen`, { reason });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ status: 'draft', reopen_reason: reason });
    const stored = await db.selectFrom('grades').select(['status', 'reopen_reason']).where('id', '=', target.gradeId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'draft', reopen_reason: reason });
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'grade.reopen').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ entity: 'grade', entity_id: String(target.gradeId) });
    expect(typeof audit.details === 'string' ? JSON.parse(audit.details) : audit.details).toMatchObject({ reason, jury_id: jurors.harsh });

    // The entry stays on the moderation list while the grade is reopened, flagged no more (the draft does not count).
    const after = (await client.get<{ data: ExamModeration }>(`/api/exams/${examId}/moderation`)).body.data;
    const e1 = after.entries.find((e) => e.contestId === entries[0])!;
    expect(e1.flagged).toBe(false);
    expect(e1.grades.find((g) => g.gradeId === target.gradeId)).toMatchObject({ status: 'draft', reopenReason: reason, normalised: null });

    // The juror sees it in their portal and submits again; the reason stays on the grade.
    const juror = await jurorClient(t.app, jurors.harsh);
    const assignment = (await db.selectFrom('grades').select('assignment_id').where('id', '=', target.gradeId).executeTakeFirstOrThrow()).assignment_id;
    const again = await juror.put(`/api/assignments/${assignment}/grade`, {
      scores: { idea: 8, craft: 4 },
      remarks: 'Rechecked against the guide',
      submit: true,
    });
    expect(again.status).toBe(200);
    expect(await db.selectFrom('grades').select(['status', 'total', 'reopen_reason']).where('id', '=', target.gradeId).executeTakeFirstOrThrow()).toMatchObject(
      { status: 'submitted', total: 80, reopen_reason: reason },
    );
  });

  it('exports remarks, per-criterion scores and override marks, with formulas neutralised in CSV', async () => {
    const data = await results();
    const fourth = data.entries[3]!;
    const override = await client.put(`/api/exams/${examId}/awards/${fourth.contestId}`, {
      award_category_id: awards.Gold,
      reason: 'Jury chair: bravest work',
    });
    expect(override.status).toBe(200);

    const perEntry: string[][] = parse((await download('format=csv')).body, { bom: true });
    const head = perEntry[0]!;
    for (const column of ['Award', 'Award Changed', 'Award by Rule', 'Reason for Change', 'Raw Grades', 'Final Score (Normalised Score)'])
      expect(head).toContain(column);
    const row = perEntry.find((r) => r[head.indexOf('Contest ID')] === String(fourth.contestId))!;
    expect([
      row[head.indexOf('Award')],
      row[head.indexOf('Award Changed')],
      row[head.indexOf('Award by Rule')],
      row[head.indexOf('Reason for Change')],
    ]).toEqual(['Gold', 'TRUE', '', 'Jury chair: bravest work']);

    const perJuror: string[][] = parse((await download('format=csv&per=juror')).body, { bom: true });
    const jh = perJuror[0]!;
    for (const column of ['Juror', 'Idea', 'Craft', 'Remarks', 'Reopen Reason', 'Award Changed']) expect(jh).toContain(column);
    const f1e1 = perJuror.find((r) => r[jh.indexOf('Contest ID')] === String(entries[0]) && r[jh.indexOf('Juror')] === 'Juror 1')!;
    expect([f1e1[jh.indexOf('Idea')], f1e1[jh.indexOf('Craft')], f1e1[jh.indexOf('Remarks')]]).toEqual(['9', '4.5', 'Clear, brave idea']);
    const harsh = perJuror.find((r) => r[jh.indexOf('Contest ID')] === String(entries[2]) && r[jh.indexOf('Juror')] === 'Juror 4')!;
    expect(harsh[jh.indexOf('Idea')]).toBe('5');
    expect(harsh[jh.indexOf('Remarks')]).toBe(`'${HARSH_REMARK}`);
    // A remark a spreadsheet would run as a formula starts with a quote in the CSV.
    const body = (await download('format=csv&per=juror')).body;
    expect(body).not.toMatch(/(^|,)"?=HYPERLINK/m);
    const reopenedRow = perJuror.find((r) => r[jh.indexOf('Reopen Reason')]?.startsWith('Scores far below'))!;
    expect(reopenedRow[jh.indexOf('Remarks')]).toBe('Rechecked against the guide');
    const overridden = perJuror.filter((r) => r[jh.indexOf('Contest ID')] === String(fourth.contestId));
    expect(overridden.length).toBeGreaterThan(0);
    expect(overridden.every((r) => r[jh.indexOf('Award Changed')] === 'TRUE')).toBe(true);

    const xlsx = await download('format=xlsx&per=juror');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Idea', 'Craft', 'Remarks']));
    let remark: unknown;
    sheet.eachRow((r) => {
      const values = (r.values as unknown[]).slice(1);
      if (values[header.indexOf('Contest ID')] === entries[0] && values[header.indexOf('Juror')] === 'Juror 1') remark = values[header.indexOf('Remarks')];
    });
    expect(remark).toBe('Clear, brave idea');
  });

  it('refuses to finalise an open exam with exam_not_closed, translated', async () => {
    const res = await client.post(`/api/exams/${examId}/finalise`);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ keyword: 'exam_not_closed', messageKey: 'results.errors.examNotClosed', params: { name: 'Season Round 1' } });
    expect(await db.selectFrom('exam_locks').selectAll().where('exam_id', '=', examId).execute()).toEqual([]);
  });

  it('says exactly what a shortlist moved: how many, into which exam, which were there already', async () => {
    const first = (await client.post<{ data: ShortlistResult }>(`/api/exams/${examId}/shortlist`, { top: 3 })).body.data;
    expect(first).toMatchObject({ dryRun: false, createdExam: true, targetExamName: 'Season Round 2', added: entries.slice(0, 3), unchanged: [] });
    const second = (await client.post<{ data: ShortlistResult }>(`/api/exams/${examId}/shortlist`, { top: 4 })).body.data;
    expect(second).toMatchObject({
      createdExam: false,
      targetExamId: first.targetExamId,
      targetExamName: 'Season Round 2',
      added: [entries[3]],
      unchanged: entries.slice(0, 3),
      removed: [],
    });
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'results.shortlist').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(typeof audit.details === 'string' ? JSON.parse(audit.details) : audit.details).toMatchObject({ ranking: 'normalised', added: [entries[3]] });
  });
});
