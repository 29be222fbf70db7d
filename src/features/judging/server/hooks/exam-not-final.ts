import { sql } from 'kysely';
import type { BeforeWriteHook } from '../../../../shared/extension/server-hooks.js';

/**
 * Refuses a write to a record of a final exam (a grade): 409 naming the exam. The exam is the
 * record's `exam_id` (or, on update, the stored one). An exam becomes `final` through the status
 * workflow or the results' finalise (which also stores the locked results); reopening it, with a
 * reason, moves it back to `closed`.
 */
export const examNotFinal: BeforeWriteHook = async ({ data, previous, db, errors }) => {
  const examId = Number(data.exam_id ?? previous?.exam_id);
  if (!Number.isInteger(examId) || examId < 1) return;
  const exam = (await sql<{ name: string }>`select name from exams where id = ${examId} and status = 'final'`.execute(db)).rows[0];
  if (exam) throw errors.conflict(`Examination "${exam.name}" (${examId}) is final: its grades and results are locked. Reopen it to change them.`);
};
