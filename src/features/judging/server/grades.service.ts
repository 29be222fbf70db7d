import { sql } from 'kysely';
import { conflict, forbidden, notFound, validationFailed } from '../../../server/index.js';
import type { FieldError } from '../../../shared/api-contract.js';
import { assertExamWritable } from '../../editions/server.js';
import { type Criterion, weightedTotal } from '../shared/weighted-total.js';
import { finalisedConflict } from './exam-final.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import { type JudgingMail, mailGradeReopened } from './judging-mail.js';
import type { JudgingDb } from './tables.js';

/** The body of `PUT /api/assignments/{id}/grade`. */
export interface GradeInput {
  scores: Record<string, number>;
  remarks?: string | null;
  submit?: boolean;
}

/** A grade as the API returns it (the results engineer reads these fields). */
export interface GradeRecord {
  id: number;
  assignment_id: number | null;
  exam_id: number;
  contest_id: number;
  jury_id: number;
  scores: Record<string, number>;
  total: number;
  score: number;
  remarks: string | null;
  status: 'draft' | 'submitted';
  submitted_at: string | null;
  updated_at: string;
  /** Why an admin last reopened it (set by `reopenGrade`). */
  reopen_reason?: string | null;
}

/** Checks scores against the criteria: unknown keys and out-of-range values always, missing ones on submit. */
export function scoreErrors(criteria: readonly Criterion[], scores: Record<string, number>, submit: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const known = new Map(criteria.map((c) => [c.key, c]));
  for (const key of Object.keys(scores)) {
    if (!known.has(key)) errors.push({ path: `scores.${key}`, keyword: 'unknown', messageKey: 'judging.errors.score_unknown', params: { criterion: key } });
  }
  for (const c of criteria) {
    const value = scores[c.key];
    if (value === undefined || value === null) {
      if (submit)
        errors.push({
          path: `scores.${c.key}`,
          keyword: 'required',
          messageKey: 'judging.errors.score_required',
          params: { criterion: c.key, label: c.label },
        });
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > c.maximum) {
      errors.push({
        path: `scores.${c.key}`,
        keyword: 'range',
        messageKey: 'judging.errors.score_range',
        params: { criterion: c.key, label: c.label, maximum: c.maximum },
      });
    }
  }
  return errors;
}

/**
 * Saves the juror's grade of one assignment: only the assigned juror, only while the exam is open,
 * never a submitted grade (an admin reopens it first) nor a recused assignment. The total is
 * computed here from the exam's criteria. Moves the assignment to `in_progress` or `submitted`;
 * audited in the same transaction.
 */
export async function saveGrade(
  db: JudgingDb,
  input: { assignmentId: number; juryId: number; userId: number; ip: string | null; body: GradeInput },
): Promise<GradeRecord> {
  const { body } = input;
  const submit = body.submit === true;
  return db.transaction().execute(async (trx) => {
    const row = (
      await sql<{
        id: number;
        exam_id: number;
        contest_id: number;
        jury_id: number;
        status: string;
        criteria: Criterion[];
        max_score: number;
        exam_status: string;
        exam_name: string;
      }>`
        select a.id, a.exam_id, a.contest_id, a.jury_id, a.status, e.criteria, e.max_score, e.status as exam_status, e.name as exam_name
        from assignments a join exams e on e.id = a.exam_id where a.id = ${input.assignmentId} for update of a`.execute(trx)
    ).rows[0];
    if (!row) throw notFound('Assignment not found.');
    if (row.jury_id !== input.juryId) throw forbidden('Only the assigned juror may grade this entry.');
    await assertExamWritable(trx, row.exam_id);
    if (row.exam_status === 'final') throw finalisedConflict({ id: row.exam_id, name: row.exam_name });
    if (row.exam_status !== 'open')
      throw conflict('The examination is not open: grades cannot be changed.', [
        { path: '', keyword: 'exam_closed', messageKey: 'judging.errors.exam_not_open', params: { status: row.exam_status } },
      ]);
    if (row.status === 'recused')
      throw conflict('You recused from this entry.', [{ path: '', keyword: 'recused', messageKey: 'judging.errors.recused', params: {} }]);
    if (row.status === 'submitted')
      throw conflict('This grade was submitted; an admin must reopen it first.', [
        { path: '', keyword: 'submitted', messageKey: 'judging.errors.grade_submitted', params: {} },
      ]);
    const criteria = row.criteria ?? [];
    const errors = scoreErrors(criteria, body.scores, submit);
    if (errors.length > 0) throw validationFailed(errors, `Invalid scores: ${errors.map((e) => `${e.path.slice(7)} ${e.keyword}`).join(', ')}.`);
    const total = weightedTotal(criteria, body.scores, row.max_score);
    const status = submit ? 'submitted' : 'draft';
    const scores = JSON.stringify(body.scores);
    const remarks = body.remarks ?? null;
    const saved = (
      await sql<GradeRecord>`
        insert into grades (assignment_id, exam_id, contest_id, jury_id, scores, total, score, remarks, status, submitted_at)
        values (${row.id}, ${row.exam_id}, ${row.contest_id}, ${row.jury_id}, ${scores}::jsonb, ${total}, ${Math.round(total)}, ${remarks}, ${status}, ${submit ? sql`now()` : null})
        on conflict (exam_id, contest_id, jury_id) do update set assignment_id = excluded.assignment_id, scores = excluded.scores,
          total = excluded.total, score = excluded.score, remarks = excluded.remarks, status = excluded.status,
          submitted_at = excluded.submitted_at, updated_at = greatest(now(), grades.updated_at + interval '1 millisecond')
        returning id, assignment_id, exam_id, contest_id, jury_id, scores, total, score, remarks, status, submitted_at, updated_at`.execute(trx)
    ).rows[0]!;
    await sql`update assignments set status = ${submit ? 'submitted' : 'in_progress'}, updated_at = now() where id = ${row.id}`.execute(trx);
    await writeJudgingAudit(trx, {
      action: submit ? 'grade.submit' : 'grade.save',
      userId: input.userId,
      entity: 'grade',
      entityId: saved.id,
      ip: input.ip,
      details: { assignment_id: row.id, total, status },
    });
    return saved;
  });
}

/** The fewest and most characters of a grade's reopen reason. */
export const REOPEN_REASON_LENGTH = { min: 3, max: 500 } as const;

/**
 * An admin reopens a submitted grade with a reason: back to draft, the reason stored on the grade
 * (`reopen_reason`, the juror sees it), its assignment back to in progress; audited with the
 * reason. 422 `reason_required` without a reason of 3 to 500 characters. With `mail`, the juror is
 * told by mail why (in the same transaction).
 */
export async function reopenGrade(
  db: JudgingDb,
  gradeId: number,
  reasonInput: string | null | undefined,
  actor: Actor,
  mail?: JudgingMail,
): Promise<GradeRecord> {
  const reason = typeof reasonInput === 'string' ? reasonInput.trim() : '';
  if (reason.length < REOPEN_REASON_LENGTH.min || reason.length > REOPEN_REASON_LENGTH.max) {
    throw validationFailed(
      [{ path: 'reason', keyword: 'reason_required', messageKey: 'judging.errors.reason_length', params: { ...REOPEN_REASON_LENGTH } }],
      'Give a reason of 3 to 500 characters for reopening the grade.',
    );
  }
  return db.transaction().execute(async (trx) => {
    const grade = (
      await sql<GradeRecord & { exam_status: string }>`
      select g.*, e.status as exam_status from grades g join exams e on e.id = g.exam_id where g.id = ${gradeId} for update of g`.execute(trx)
    ).rows[0];
    if (!grade) throw notFound('Grade not found.');
    await assertExamWritable(trx, grade.exam_id);
    if (grade.status !== 'submitted') throw conflict('Only a submitted grade can be reopened.');
    if (grade.exam_status === 'final') throw conflict('The examination is final: its grades are locked.');
    const saved = (
      await sql<GradeRecord>`
      update grades set status = 'draft', submitted_at = null, reopen_reason = ${reason},
        updated_at = greatest(now(), updated_at + interval '1 millisecond')
      where id = ${gradeId}
      returning id, assignment_id, exam_id, contest_id, jury_id, scores, total, score, remarks, status, submitted_at, updated_at, reopen_reason`.execute(trx)
    ).rows[0]!;
    await sql`update assignments set status = 'in_progress', updated_at = now()
      where exam_id = ${grade.exam_id} and contest_id = ${grade.contest_id} and jury_id = ${grade.jury_id}`.execute(trx);
    await writeJudgingAudit(trx, {
      action: 'grade.reopen',
      userId: actor.userId,
      entity: 'grade',
      entityId: gradeId,
      ip: actor.ip,
      details: { previous_status: 'submitted', reason, jury_id: grade.jury_id, exam_id: grade.exam_id, contest_id: grade.contest_id },
    });
    if (mail) await mailGradeReopened(trx, mail, grade, reason);
    return saved;
  });
}
