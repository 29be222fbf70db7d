import { sql } from 'kysely';
import { notFound } from '../../../server/index.js';
import { sameCompany } from '../shared/company-key.js';
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
 * The assignment matrix of an exam: its entries (with their submittor's company) and the jurors of
 * its round, the assignments between them, counts per row and column, and the pairs in conflict.
 */
export async function assignmentMatrix(db: JudgingDb, examId: number) {
  const exam = (
    await sql<{ id: number; name: string; round: number; status: string; category_id: number }>`
    select id, name, round, status, category_id from exams where id = ${examId}`.execute(db)
  ).rows[0];
  if (!exam) throw notFound('Examination not found.');
  const [entries, jurors, assignments] = await Promise.all([
    sql<{ id: number; status: string; company: string | null }>`
      select c.id, c.status, cu.company from contests c left join customers cu on cu.id = c.customer_id
      where c.category_id = ${exam.category_id} order by c.id`.execute(db),
    sql<{ id: number; name: string; company: string | null; is_active: boolean }>`
      select id, name, company, is_active from juries j where round = ${exam.round}
        and (is_active or exists (select 1 from assignments a where a.jury_id = j.id and a.exam_id = ${examId})) order by name, id`.execute(db),
    sql<{ id: number; contest_id: number; jury_id: number; status: string }>`
      select id, contest_id, jury_id, status from assignments where exam_id = ${examId} order by id`.execute(db),
  ]);
  const live = assignments.rows.filter((a) => a.status !== 'recused');
  const countBy = (key: 'contest_id' | 'jury_id', id: number) => live.filter((a) => a[key] === id).length;
  const conflicts: Array<[number, number]> = [];
  for (const e of entries.rows) for (const j of jurors.rows) if (sameCompany(e.company, j.company)) conflicts.push([e.id, j.id]);
  return {
    exam,
    entries: entries.rows.map((e) => ({ ...e, count: countBy('contest_id', e.id) })),
    jurors: jurors.rows.map((j) => ({ ...j, count: countBy('jury_id', j.id) })),
    assignments: assignments.rows,
    conflicts,
  };
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
