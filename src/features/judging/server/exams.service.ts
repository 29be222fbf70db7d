import { type Kysely, sql } from 'kysely';
import { canMoveExam } from '../shared/exam-status.js';
import { conflict, notFound, validationFailed } from '../../../server/index.js';
import type { EntityRegistry } from '../../../server/index.js';
import { runExamFinalHandlers } from './exam-final.js';
import { writeJudgingAudit } from './judging-audit.js';

/** Who acts, for the audit log. */
export interface Actor {
  userId: number;
  ip: string | null;
}

/**
 * Moves an exam's status one step of the workflow (`EXAM_MOVES`): 409 for any other move, 422 when
 * an exam without criteria would open. Moving to `final` runs the handlers other features
 * registered with `onExamFinal` (results: the snapshot that locks grades and results) in the same
 * transaction. Audited; answers the exam's row.
 */
export async function moveExamStatus(db: Kysely<any>, registry: EntityRegistry, examId: number, to: string, actor: Actor): Promise<Record<string, unknown>> {
  return db.transaction().execute(async (trx) => {
    const exam = (await sql<{ name: string; status: string; criteria: unknown[] | null }>`
      select name, status, criteria from exams where id = ${examId} for update`.execute(trx)).rows[0];
    if (!exam) throw notFound('Examination not found.');
    if (!canMoveExam(exam.status, to)) {
      throw conflict(`An examination cannot move from ${exam.status} to ${to}.`, [
        { path: 'status', keyword: 'transition', messageKey: 'judging.errors.bad_transition', params: { from: exam.status, to } },
      ]);
    }
    if (to === 'open' && !(exam.criteria ?? []).length) {
      throw validationFailed([{ path: 'criteria', keyword: 'minItems', messageKey: 'judging.errors.no_criteria', params: {} }], 'An examination needs criteria before it opens.');
    }
    const row = (await sql<Record<string, unknown>>`update exams set status = ${to}, updated_at = greatest(now(), updated_at + interval '1 millisecond')
      where id = ${examId} returning *`.execute(trx)).rows[0]!;
    if (to === 'final') await runExamFinalHandlers({ db: trx, registry, exam: { id: examId, name: exam.name, previousStatus: exam.status }, actor });
    await writeJudgingAudit(trx, { action: 'exam.status', userId: actor.userId, entity: 'exam', entityId: examId, ip: actor.ip, details: { from: exam.status, to } });
    return row;
  });
}
