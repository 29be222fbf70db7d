import { sql } from 'kysely';
import type { BeforeWriteHook } from '../../../../shared/extension/server-hooks.js';

/**
 * Refuses a write to a record of a finalised exam (a grade, an assignment): 409 naming the exam.
 * The exam is the record's `exam_id` (or, on update, the stored one). Finalising stores the exam's
 * locked results in `exam_locks`; reopening it, with a reason, lifts the lock.
 */
export const examNotFinal: BeforeWriteHook = async ({ data, previous, db, errors }) => {
  const examId = Number(data.exam_id ?? previous?.exam_id);
  if (!Number.isInteger(examId) || examId < 1) return;
  const lock = await sql<{ name: string | null }>`select results->'exam'->>'name' as name from exam_locks where exam_id = ${examId}`.execute(db);
  const row = lock.rows[0];
  if (row) throw errors.conflict(`Examination "${row.name ?? examId}" (${examId}) is final: its grades and results are locked. Reopen it to change them.`);
};
