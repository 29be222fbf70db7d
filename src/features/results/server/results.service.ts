import { sql } from 'kysely';
import type { EntityRegistry, ListScopeConditions } from '../../../server/index.js';
import { notFound } from '../../../server/index.js';
import { judgingStatus } from '../../judging/index.js';
import { finalisedConflict, type ShortlistStates } from '../../judging/server.js';
import { aggregateExam, round2 } from '../shared/aggregate.js';
import { type AwardOverride, type AwardRule, computeAwards } from '../shared/awards.js';
import type { ContestJudging, ExamResultsData, ProgressPoint, ResultsEntry, ResultsOverview } from '../shared/results-contract.js';
import { type ExamData, type ExamRow, loadExamData, readExam } from './exam-data.js';
import { type EntityDb, resultsDb } from './tables.js';

/** Reads the lock of a finalised exam, or null. */
export async function examLock(db: EntityDb, examId: number) {
  const row = await resultsDb(db).selectFrom('exam_locks').selectAll().where('exam_id', '=', examId).executeTakeFirst();
  return row
    ? {
        results: (typeof row.results === 'string' ? JSON.parse(row.results) : row.results) as ExamResultsData,
        at: new Date(row.created_at).toISOString(),
        by: row.user_id,
      }
    : null;
}

/** Throws judging's 409 (`finalisedConflict`) when the exam is finalised (grades, awards, shortlist into it). */
export async function assertExamNotFinal(db: EntityDb, exam: { id: number; name: string; status?: string }): Promise<void> {
  if (exam.status === 'final') throw finalisedConflict(exam);
  const row = await resultsDb(db).selectFrom('exam_locks').select('exam_id').where('exam_id', '=', exam.id).executeTakeFirst();
  if (row) throw finalisedConflict(exam);
}

/** The award categories' rules, when that entity is configured. */
export async function awardRules(db: EntityDb, registry: EntityRegistry): Promise<AwardRule[]> {
  const table = registry.byName.get('award_category')?.descriptor.table;
  if (!table) return [];
  const rows = await db.selectFrom(table).select(['id', 'name', 'rank', 'rule', 'top_n', 'min_score']).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name as string,
    rank: Number(r.rank),
    rule: r.rule as AwardRule['rule'],
    top_n: r.top_n === null ? null : Number(r.top_n),
    min_score: r.min_score === null ? null : Number(r.min_score),
  }));
}

/** Whether the exam is its category's final round (no exam of the category has a later round): awards come from it. */
async function isFinalRound(db: EntityDb, registry: EntityRegistry, exam: ExamRow): Promise<boolean> {
  const entity = registry.byName.get('exam')!;
  const later = await db
    .selectFrom(entity.descriptor.table)
    .select('id')
    .where('category_id', '=', exam.category_id)
    .where('round', '>', exam.round)
    // Within the exam's edition: next year's rounds do not make this year's final round an early one.
    .$if(!!entity.schema.properties?.edition_id, (q) =>
      exam.edition_id == null ? q.where('edition_id', 'is', null) : q.where('edition_id', '=', exam.edition_id),
    )
    .executeTakeFirst();
  return !later;
}

/** Cumulative submitted grades at the end of each day one was submitted. */
export function progressOf(data: ExamData): ProgressPoint[] {
  const days = data.grades
    .filter((g) => (g.status ?? 'submitted') === 'submitted' && g.submittedAt)
    .map((g) => g.submittedAt!.slice(0, 10))
    .sort();
  const points: ProgressPoint[] = [];
  days.forEach((date, i) => {
    if (points.at(-1)?.date === date) points.at(-1)!.submitted = i + 1;
    else points.push({ date, submitted: i + 1 });
  });
  return points;
}

/** Computes the results of an exam from its current grades (ignoring any lock). */
export async function liveResults(db: EntityDb, registry: EntityRegistry, examId: number): Promise<ExamResultsData> {
  const data = await loadExamData(db, registry, examId);
  const { exam } = data;
  const results = aggregateExam(data.entries, data.grades, data.assignments, { maxScore: exam.max_score, basis: exam.ranking });
  const categories = await awardRules(db, registry);
  // Awards come from the final round's ranking; an admin's override names its award in any round.
  const rules = (await isFinalRound(db, registry, exam)) ? categories : [];
  const overrides: AwardOverride[] = (
    await resultsDb(db).selectFrom('award_overrides').select(['contest_id', 'award_category_id', 'reason']).where('exam_id', '=', examId).execute()
  ).map((o) => ({ contestId: Number(o.contest_id), awardId: o.award_category_id === null ? null : Number(o.award_category_id), reason: o.reason }));
  const awards = new Map(computeAwards(results.entries, rules, exam.max_score, overrides).map((a) => [a.contestId, a]));
  const nameOf = new Map(categories.map((r) => [r.id, r.name]));
  const award = (id: number | null | undefined) => (id === null || id === undefined ? null : { id, name: nameOf.get(id) ?? `#${id}` });
  const info = new Map(data.entries.map((e) => [e.contestId, e]));
  const entries: ResultsEntry[] = results.entries.map((e) => {
    const a = awards.get(e.contestId);
    const who = info.get(e.contestId);
    return {
      ...e,
      submittedAt: who?.submittedAt ?? null,
      campaign: who?.campaign ?? null,
      customer: who?.customer ?? null,
      company: who?.company ?? null,
      award: award(a?.awardId),
      ruleAward: a?.overridden ? award(a.ruleAwardId) : null,
      awardOverridden: a?.overridden ?? false,
      awardReason: a?.reason ?? null,
    };
  });
  return {
    exam: {
      id: exam.id,
      name: exam.name,
      round: exam.round,
      category_id: exam.category_id,
      category: data.category,
      max_score: exam.max_score,
      status: exam.status,
    },
    ranking: results.basis,
    finalised: null,
    examMean: results.examMean,
    examSd: results.examSd,
    moderationThreshold: results.moderationThreshold,
    assigned: entries.reduce((sum, e) => sum + e.assigned, 0),
    submitted: entries.reduce((sum, e) => sum + e.submitted, 0),
    entries,
    jurors: results.jurors.map((j) => ({ ...j, name: data.jurorNames.get(j.jurorId) ?? `#${j.jurorId}` })),
    progress: progressOf(data),
  };
}

/**
 * A snapshot locked before exams had a ranking basis ranked by trimmed mean: it says so, and its
 * entries' final score is their trimmed mean (nothing else in it changes).
 */
function lockedFigures(results: ExamResultsData): ExamResultsData {
  if (results.ranking) return results;
  return {
    ...results,
    ranking: 'trimmed_mean',
    entries: results.entries.map((e) => ({ ...e, score: e.score ?? e.trimmedMean, rawGrades: e.rawGrades ?? e.grades.filter((g) => g.raw).length })),
  };
}

/** The results of an exam: the locked figures once it is finalised, else computed now. */
export async function examResults(db: EntityDb, registry: EntityRegistry, examId: number): Promise<ExamResultsData> {
  const lock = await examLock(db, examId);
  if (lock) {
    // The figures are the stored ones; the exam's name and status are what they are now (the
    // snapshot was taken while it was still closed).
    const now = await readExam(db, registry, examId);
    return { ...lockedFigures(lock.results), exam: { ...lock.results.exam, name: now.name, status: now.status }, finalised: { at: lock.at, by: lock.by } };
  }
  const live = await liveResults(db, registry, examId);
  // Made final through the status workflow rather than finalise: grades are locked all the same.
  return live.exam.status === 'final' ? { ...live, finalised: { at: new Date().toISOString(), by: null } } : live;
}

/** Contest ids with at least one grade in the exam. */
export async function gradedContests(db: EntityDb, registry: EntityRegistry, examId: number): Promise<Set<number>> {
  const table = registry.byName.get('grade')?.descriptor.table;
  if (!table) return new Set();
  const rows = await sql<{ contest_id: number }>`select distinct contest_id from ${sql.table(table)} where exam_id = ${examId}`.execute(db);
  return new Set(rows.rows.map((r) => Number(r.contest_id)));
}

/** The dashboard's charts over every exam (see {@link ResultsOverview}). */
export async function resultsOverview(db: EntityDb, registry: EntityRegistry, scope: ListScopeConditions = {}): Promise<ResultsOverview> {
  const table = registry.byName.get('exam')?.descriptor.table;
  if (!table) return { exams: [], jurors: [], progress: [] };
  // The exams of the caller's list scope (their current edition), as the exam list shows them.
  let exams = db.selectFrom(table).select('id');
  for (const [field, value] of Object.entries(scope)) exams = exams.where(field, '=', value);
  const ids = (await exams.orderBy('category_id').orderBy('round').execute()).map((r) => Number(r.id));
  const all = [];
  for (const id of ids) all.push(await examResults(db, registry, id));
  const jurors = new Map<string, { grades: number; total: number; lenient: number }>();
  const days = new Map<string, number>();
  for (const r of all) {
    for (const j of r.jurors) {
      const s = jurors.get(j.name) ?? { grades: 0, total: 0, lenient: 0 };
      jurors.set(j.name, { grades: s.grades + j.grades, total: s.total + j.mean * j.grades, lenient: s.lenient + j.leniency * j.grades });
    }
    let previous = 0;
    for (const p of r.progress) {
      days.set(p.date, (days.get(p.date) ?? 0) + p.submitted - previous);
      previous = p.submitted;
    }
  }
  let running = 0;
  const progress = [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, n]) => ({ date, submitted: (running += n) }));
  return {
    exams: all.map((r) => ({
      examId: r.exam.id,
      category: r.exam.category,
      round: r.exam.round,
      maxScore: r.exam.max_score,
      scores: r.entries.filter((e) => e.score !== null).map((e) => e.score!),
    })),
    jurors: [...jurors]
      .map(([name, s]) => ({ name, grades: s.grades, mean: round2(s.total / s.grades), leniency: round2(s.lenient / s.grades) }))
      .sort((a, b) => b.leniency - a.leniency || a.name.localeCompare(b.name)),
    progress,
  };
}

/** One contest's judging: its row in the results of every exam of its category it is an entry of. */
export async function contestJudging(db: EntityDb, registry: EntityRegistry, contestId: number): Promise<ContestJudging> {
  const contests = registry.byName.get('contest')!.descriptor.table;
  const exams = registry.byName.get('exam')?.descriptor.table;
  const contest = await db.selectFrom(contests).selectAll().where('id', '=', contestId).executeTakeFirst();
  if (!contest) throw notFound(`Contest ${contestId} does not exist.`);
  // The exams of its category in its edition (when exams have one).
  const editioned = !!registry.byName.get('exam')?.schema.properties?.edition_id && contest.edition_id !== undefined;
  const ids = exams
    ? (
        await db
          .selectFrom(exams)
          .select('id')
          .where('category_id', '=', contest.category_id)
          .$if(editioned, (q) => (contest.edition_id === null ? q.where('edition_id', 'is', null) : q.where('edition_id', '=', contest.edition_id)))
          .orderBy('round')
          .orderBy('id')
          .execute()
      ).map((r) => Number(r.id))
    : [];
  const rows: ContestJudging['exams'] = [];
  for (const id of ids) {
    const r = await examResults(db, registry, id);
    const entry = r.entries.find((e) => e.contestId === contestId);
    if (!entry) continue;
    const names = new Map(r.jurors.map((j) => [j.jurorId, j.name]));
    rows.push({
      examId: id,
      name: r.exam.name,
      round: r.exam.round,
      finalised: r.finalised !== null,
      entry,
      jurors: entry.grades.map((g) => ({ name: names.get(g.jurorId) ?? `#${g.jurorId}`, total: g.total })),
    });
  }
  const graded = (round: number) => rows.filter((x) => x.round === round).reduce((n, x) => n + x.entry.submitted, 0);
  const inRoundTwo = rows.some((x) => x.round === 2);
  const r1Shortlisted = await resultsDb(db)
    .selectFrom('exam_entries')
    .select('contest_id')
    .where('source_exam_id', 'in', ids.length ? ids : [0])
    .executeTakeFirst();
  return { contestId, status: judgingStatus(contest.status, graded(1), graded(2), inRoundTwo ? 'in' : r1Shortlisted ? 'out' : undefined), exams: rows };
}

/**
 * Judging's dashboard's shortlist states (registered with judging's `provideShortlistStates`): a
 * contest is `in` when shortlisted into a Round 2 exam, `out` when its category was shortlisted
 * without it.
 */
export const shortlistStatesOf: ShortlistStates = async (db, registry, contests) => {
  const exams = registry.byName.get('exam')?.descriptor.table;
  const states = new Map<number, 'in' | 'out'>();
  if (!exams || contests.length === 0) return states;
  const ids = contests.map((c) => Number(c.id));
  const shortlisted = new Set(
    (await resultsDb(db).selectFrom('exam_entries').select('contest_id').where('contest_id', 'in', ids).execute()).map((r) => Number(r.contest_id)),
  );
  // Out: a Round 1 of the contest's category (and edition, when both have one) was shortlisted without it.
  const contestEntity = registry.byName.get('contest');
  const sameEdition =
    contestEntity?.schema.properties?.edition_id && registry.byName.get('exam')?.schema.properties?.edition_id
      ? sql`and e.edition_id is not distinct from c.edition_id`
      : sql``;
  const out = contestEntity
    ? new Set(
        (
          await sql<{ id: number }>`select c.id from ${sql.table(contestEntity.descriptor.table)} c where c.id in (${sql.join(ids)}) and exists (
            select 1 from exam_entries x join ${sql.table(exams)} e on e.id = x.source_exam_id where e.category_id = c.category_id ${sameEdition})`.execute(db)
        ).rows.map((r) => Number(r.id)),
      )
    : new Set<number>();
  for (const contest of contests) {
    if (shortlisted.has(Number(contest.id))) states.set(Number(contest.id), 'in');
    else if (out.has(Number(contest.id))) states.set(Number(contest.id), 'out');
  }
  return states;
};
