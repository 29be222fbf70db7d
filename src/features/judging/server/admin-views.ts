import { sql } from 'kysely';
import { notFound } from '../../../server/index.js';
import { conflictRules } from '../shared/assignment-rules.js';
import type { ExamEntry } from '../shared/season-types.js';
import { declaredConflicts } from './conflicts.service.js';
import { eligibleEntries, examScope } from './eligibility.js';
import { assignedCodes } from './entry-codes.js';
import { jurorLoads, panelOf } from './panels.service.js';
import type { JudgingDb } from './tables.js';

const COUNTS = sql`count(a.id)::int as total,
  count(*) filter (where a.status = 'assigned')::int as assigned,
  count(*) filter (where a.status = 'in_progress')::int as in_progress,
  count(*) filter (where a.status = 'submitted')::int as submitted,
  count(*) filter (where a.status = 'recused')::int as recused`;

/** Assignments by status: graded is `submitted`; assigned is `total - recused`. */
export interface ProgressCounts {
  total: number;
  assigned: number;
  in_progress: number;
  submitted: number;
  recused: number;
}

/** Grading progress of one exam, one juror, one category's round. */
export interface ExamProgressRow extends ProgressCounts {
  id: number;
  name: string;
  round: number;
  status: string;
  category_id: number;
}
export interface JurorProgressRow extends ProgressCounts {
  jury_id: number;
  name: string;
  round: number;
}
export interface CategoryProgressRow extends ProgressCounts {
  category_id: number;
  name: string;
  round: number;
}

/**
 * Grading progress for admins: assignments by status per exam, per juror and per category and
 * round (all exams, or the one `examId`). Graded is `submitted`; assigned is `total - recused`.
 */
export async function judgingProgress(db: JudgingDb, examId?: number) {
  const onExam = examId ? sql`and a.exam_id = ${examId}` : sql``;
  const [exams, jurors, categories] = await Promise.all([
    sql<ExamProgressRow>`select e.id, e.name, e.round, e.status, e.category_id, ${COUNTS}
      from exams e left join assignments a on a.exam_id = e.id ${onExam}
      ${examId ? sql`where e.id = ${examId}` : sql``} group by e.id order by e.round, e.id`.execute(db),
    sql<JurorProgressRow>`select j.id as jury_id, j.name, j.round, ${COUNTS}
      from juries j join assignments a on a.jury_id = j.id ${onExam} group by j.id order by j.name, j.id`.execute(db),
    sql<CategoryProgressRow>`select ca.id as category_id, ca.name, e.round, ${COUNTS}
      from categories ca join exams e on e.category_id = ca.id join assignments a on a.exam_id = e.id ${onExam}
      group by ca.id, e.round order by ca.name, ca.id, e.round`.execute(db),
  ]);
  return { exams: exams.rows, jurors: jurors.rows, categories: categories.rows };
}

/**
 * The assignment matrix of an exam: its eligible entries (§17, with status, blind code, how they
 * came in, and the submittor's company and campaign brand; an entry no longer eligible shows only
 * while it holds assignments, flagged), the jurors on its panel and any other juror assigned in it
 * (with their load across the edition), the assignments between them, counts per row and column,
 * and the pairs in conflict with the rules they break.
 */
export async function assignmentMatrix(db: JudgingDb, examId: number) {
  const exam = (
    await sql<{ id: number; name: string; round: number; status: string; category_id: number; edition_id: number | null }>`
    select id, name, round, status, category_id, edition_id from exams where id = ${examId}`.execute(db)
  ).rows[0];
  if (!exam) throw notFound('Examination not found.');
  const [eligible, panel, assignments] = await Promise.all([
    eligibleEntries(db, exam),
    panelOf(db, exam),
    sql<{ id: number; contest_id: number; jury_id: number; status: string }>`
      select id, contest_id, jury_id, status from assignments where exam_id = ${examId} order by id`.execute(db),
  ]);
  const eligibleIds = new Set(eligible.map((e) => e.contest_id));
  const strays = [...new Set(assignments.rows.map((a) => a.contest_id))].filter((id) => !eligibleIds.has(id));
  const entryIds = [...eligibleIds, ...strays];
  const jurorIds = [...new Set([...panel.ids, ...assignments.rows.map((a) => a.jury_id)])];
  const [facts, jurors, codes, loads, declared] = await Promise.all([
    entryIds.length
      ? sql<{ id: number; status: string; company: string | null; brand: string | null }>`
          select c.id, c.status, cu.company, p.brand_name as brand from contests c
          left join customers cu on cu.id = c.customer_id left join campaigns p on p.id = c.campaign_id
          where c.id in (${sql.join(entryIds)}) order by c.id`.execute(db)
      : { rows: [] },
    jurorIds.length
      ? db.selectFrom('juries').select(['id', 'name', 'company', 'is_active']).where('id', 'in', jurorIds).orderBy('name').orderBy('id').execute()
      : [],
    assignedCodes(db, examId),
    jurorLoads(db, exam),
    declaredConflicts(db, jurorIds),
  ]);
  const onPanel = new Set(panel.ids);
  const source = new Map(eligible.map((e) => [e.contest_id, e.source]));
  const live = assignments.rows.filter((a) => a.status !== 'recused');
  const countBy = (key: 'contest_id' | 'jury_id', id: number) => live.filter((a) => a[key] === id).length;
  const conflicts: Array<[number, number]> = [];
  const conflictRulesOf: Array<{ contest_id: number; jury_id: number; rules: string[] }> = [];
  for (const e of facts.rows) {
    for (const j of jurors) {
      const rules = conflictRules({ company: j.company, declared: declared.get(j.id) ?? [] }, e);
      if (rules.length === 0) continue;
      conflicts.push([e.id, j.id]);
      conflictRulesOf.push({ contest_id: e.id, jury_id: j.id, rules });
    }
  }
  return {
    exam,
    panel: { default: !panel.saved, jury_ids: panel.ids },
    entries: facts.rows.map((e) => ({
      id: e.id,
      code: codes.get(e.id) ?? null,
      status: e.status,
      company: e.company,
      brand: e.brand,
      eligible: eligibleIds.has(e.id),
      source: source.get(e.id) ?? null,
      count: countBy('contest_id', e.id),
    })),
    jurors: jurors.map((j) => ({ ...j, on_panel: onPanel.has(j.id), edition_load: loads.get(j.id)?.edition_load ?? 0, count: countBy('jury_id', j.id) })),
    assignments: assignments.rows,
    conflicts,
    conflict_rules: conflictRulesOf,
  };
}

/** The eligible entries of an exam (`GET /api/exams/{id}/entries`): status, blind code (once assigned) and how each came in. */
export async function examEntries(db: JudgingDb, examId: number): Promise<ExamEntry[]> {
  const exam = await examScope(db, examId);
  if (!exam) throw notFound('Examination not found.');
  const eligible = await eligibleEntries(db, exam);
  const codes = await assignedCodes(db, examId);
  return eligible.map((e) => ({ ...e, code: codes.get(e.contest_id) ?? null }));
}

/** Jurors with work left (assigned or in progress) in open exams, with how many entries each. */
export async function jurorsWithWorkLeft(db: JudgingDb, examId?: number) {
  return (
    await sql<{ jury_id: number; name: string; email: string; pending: number }>`
      select j.id as jury_id, j.name, j.email, count(*)::int as pending
      from assignments a join juries j on j.id = a.jury_id join exams e on e.id = a.exam_id
      where e.status = 'open' and a.status in ('assigned', 'in_progress') and j.is_active ${examId ? sql`and e.id = ${examId}` : sql``}
      group by j.id order by j.id`.execute(db)
  ).rows;
}
