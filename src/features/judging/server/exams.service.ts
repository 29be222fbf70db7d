import { sql } from 'kysely';
import type { EntityRegistry } from '../../../server/index.js';
import { conflict, notFound, validationFailed } from '../../../server/index.js';
import { assertExamWritable } from '../../editions/server.js';
import { canMoveExam } from '../shared/exam-status.js';
import { runExamFinalHandlers } from './exam-final.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import { type JudgingMail, mailExamOpened } from './judging-mail.js';
import type { JudgingDb } from './tables.js';

/** The 409 of a move the workflow does not allow. */
export const badTransition = (from: string, to: string) =>
  conflict(`An examination cannot move from ${from} to ${to}.`, [
    { path: 'status', keyword: 'transition', messageKey: 'judging.errors.bad_transition', params: { from, to } },
  ]);

/**
 * Moves an exam's status one step of the workflow (`EXAM_MOVES`): 409 for any other move, 422 when
 * an exam without criteria would open. Moving to `final` runs the handlers other features
 * registered with `onExamFinal` (results: the snapshot that locks grades and results) in the same
 * transaction. Audited; answers the exam's row. With `mail`, opening tells each juror with entries
 * assigned in it (one mail each, in the same transaction), and finalising hands `mail` to the
 * handlers (results: the entrants are told).
 */
export async function moveExamStatus(db: JudgingDb, registry: EntityRegistry, examId: number, to: string, actor: Actor, mail?: JudgingMail) {
  await assertExamWritable(db, examId);
  return db.transaction().execute(async (trx) => {
    const exam = await trx.selectFrom('exams').select(['name', 'status', 'criteria']).where('id', '=', examId).forUpdate().executeTakeFirst();
    if (!exam) throw notFound('Examination not found.');
    if (!canMoveExam(exam.status, to)) throw badTransition(exam.status, to);
    if (to === 'open' && !(exam.criteria ?? []).length) {
      throw validationFailed(
        [{ path: 'criteria', keyword: 'minItems', messageKey: 'judging.errors.no_criteria', params: {} }],
        'An examination needs criteria before it opens.',
      );
    }
    const row = await trx
      .updateTable('exams')
      .set({ status: to, updated_at: sql<Date>`greatest(now(), updated_at + interval '1 millisecond')` })
      .where('id', '=', examId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (to === 'final') {
      // Only a person finalises (the scheduler opens and closes): the results snapshot names who locked it.
      if (actor.userId === null) throw badTransition(exam.status, to);
      await runExamFinalHandlers({
        db: trx,
        registry,
        exam: { id: examId, name: exam.name, previousStatus: exam.status },
        actor: { userId: actor.userId, ip: actor.ip },
        mail,
      });
    }
    if (to === 'open' && mail) await mailExamOpened(trx, mail, { id: examId, name: exam.name, closes_at: row.closes_at });
    await writeJudgingAudit(trx, {
      action: 'exam.status',
      userId: actor.userId,
      entity: 'exam',
      entityId: examId,
      ip: actor.ip,
      details: { from: exam.status, to },
    });
    return row;
  });
}
