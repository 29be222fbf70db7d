import { conflict, notFound, validationFailed } from '../../../server/index.js';
import { assertExamWritable } from '../../editions/server.js';
import { planAutoAssign } from './auto-assign.js';
import { ensureCodes } from './entry-codes.js';
import { checkAssignment, ruleErrors } from './hooks/assignment-rules.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import { type JudgingMail, mailAssignmentsSaved } from './judging-mail.js';
import type { JudgingDb } from './tables.js';

/** Pairs inserted per statement by an auto-assign run. */
const INSERT_CHUNK = 500;

/**
 * Plans (`dryRun`) or makes the assignments that bring every eligible entry of the exam to `perEntry`
 * jurors (see {@link planAutoAssign}), only while the exam is a draft or open. The exam's row lock
 * serialises runs: a second run plans only after the first has saved. Audited when it saves; in an
 * open exam each juror given entries gets one mail (with `mail`) in the same transaction.
 */
export async function autoAssign(db: JudgingDb, examId: number, options: { perEntry: number; dryRun: boolean }, actor: Actor, mail?: JudgingMail) {
  const { perEntry, dryRun } = options;
  await assertExamWritable(db, examId);
  return db.transaction().execute(async (trx) => {
    const exam = await trx
      .selectFrom('exams')
      .select(['id', 'name', 'category_id', 'edition_id', 'round', 'status'])
      .where('id', '=', examId)
      .forUpdate()
      .executeTakeFirst();
    if (!exam) throw notFound('Examination not found.');
    if (exam.status !== 'draft' && exam.status !== 'open') {
      throw conflict('Jurors can be assigned only while the examination is a draft or open.', [
        { path: '', keyword: 'exam_locked', messageKey: 'judging.rules.exam_locked', params: {} },
      ]);
    }
    const plan = await planAutoAssign(trx, exam, perEntry);
    if (!dryRun && plan.planned.length > 0) {
      for (let i = 0; i < plan.planned.length; i += INSERT_CHUNK) {
        const chunk = plan.planned.slice(i, i + INSERT_CHUNK);
        await trx
          .insertInto('assignments')
          .values(chunk.map((p) => ({ exam_id: examId, contest_id: p.contest_id, jury_id: p.jury_id, status: 'assigned' })))
          .onConflict((oc) => oc.columns(['exam_id', 'contest_id', 'jury_id']).doNothing())
          .execute();
      }
      await ensureCodes(
        trx,
        exam,
        plan.planned.map((p) => p.contest_id),
      );
      await writeJudgingAudit(trx, {
        action: 'exam.auto_assign',
        userId: actor.userId,
        entity: 'exam',
        entityId: examId,
        ip: actor.ip,
        details: { per_entry: perEntry, added: plan.planned.length, short: plan.short.length },
      });
      if (mail && exam.status === 'open') {
        const counts = new Map<number, number>();
        for (const p of plan.planned) counts.set(p.jury_id, (counts.get(p.jury_id) ?? 0) + 1);
        await mailAssignmentsSaved(trx, mail, exam, counts);
      }
    }
    return { exam_id: examId, per_entry: perEntry, dry_run: dryRun, ...plan };
  });
}

/**
 * Assigns one juror one entry of the exam by hand: 404 for an unknown exam, 422 naming a missing
 * record or each eligibility or conflict rule broken, 409 when the pair exists. Audited; in an open
 * exam the juror gets a mail (with `mail`) in the same transaction.
 */
export async function addAssignment(db: JudgingDb, examId: number, pair: { contest_id: number; jury_id: number }, actor: Actor, mail?: JudgingMail) {
  const ids = { exam_id: examId, contest_id: pair.contest_id, jury_id: pair.jury_id };
  await assertExamWritable(db, examId);
  return db.transaction().execute(async (trx) => {
    // The exam's row lock serialises this with auto-assign runs.
    const exam = await trx.selectFrom('exams').select(['id', 'round', 'name', 'status']).where('id', '=', examId).forUpdate().executeTakeFirst();
    if (!exam) throw notFound('Examination not found.');
    const [contest, juror] = await Promise.all([
      trx.selectFrom('contests').select('id').where('id', '=', ids.contest_id).executeTakeFirst(),
      trx.selectFrom('juries').select('id').where('id', '=', ids.jury_id).executeTakeFirst(),
    ]);
    const missing = [!contest && 'contest_id', !juror && 'jury_id'].filter(Boolean) as string[];
    if (missing.length) throw validationFailed(missing.map((path) => ({ path, keyword: 'exists', messageKey: 'judging.errors.record_missing', params: {} })));
    const broken = await checkAssignment(trx, ids);
    if (broken.length > 0) {
      const { errors, message } = ruleErrors(broken);
      throw validationFailed(errors, message);
    }
    const taken = await trx
      .selectFrom('assignments')
      .select('id')
      .where('exam_id', '=', examId)
      .where('contest_id', '=', ids.contest_id)
      .where('jury_id', '=', ids.jury_id)
      .executeTakeFirst();
    if (taken)
      throw conflict('This juror is already assigned this entry.', [{ path: 'jury_id', keyword: 'unique', messageKey: 'validation.unique', params: {} }]);
    const created = await trx
      .insertInto('assignments')
      .values({ ...ids, status: 'assigned' })
      .returning(['id', 'exam_id', 'contest_id', 'jury_id', 'status', 'recuse_reason', 'created_at', 'updated_at'])
      .executeTakeFirstOrThrow();
    const codes = await ensureCodes(trx, exam, [ids.contest_id]);
    await writeJudgingAudit(trx, { action: 'assignment.create', userId: actor.userId, entity: 'assignment', entityId: created.id, ip: actor.ip, details: ids });
    if (mail && exam.status === 'open') await mailAssignmentsSaved(trx, mail, exam, new Map([[ids.jury_id, 1]]));
    return { ...created, code: codes.get(ids.contest_id)! };
  });
}

/** Removes an assignment of the exam not yet started (404 when it is not the exam's; 409 once started or when the exam is final). Audited. */
export async function removeAssignment(db: JudgingDb, examId: number, assignmentId: number, actor: Actor): Promise<void> {
  await assertExamWritable(db, examId);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('assignments as a')
      .innerJoin('exams as e', 'e.id', 'a.exam_id')
      .select(['a.status', 'e.status as exam_status'])
      .where('a.id', '=', assignmentId)
      .where('a.exam_id', '=', examId)
      .forUpdate('a')
      .executeTakeFirst();
    if (!row) throw notFound('Assignment not found.');
    if (row.exam_status === 'final') throw conflict('The examination is final.');
    // A grade kept for it (a draft saved before an admin set the status back, or one written by
    // another path) counts as started too: its scores would otherwise go with it.
    const graded =
      row.status === 'assigned' && (await trx.selectFrom('grades').select('id').where('assignment_id', '=', assignmentId).limit(1).executeTakeFirst());
    if (row.status !== 'assigned' || graded) {
      throw conflict('Only an assignment not yet started can be removed.', [
        { path: 'status', keyword: 'started', messageKey: 'judging.errors.assignment_started', params: { status: graded ? 'in_progress' : row.status } },
      ]);
    }
    await trx.deleteFrom('assignments').where('id', '=', assignmentId).execute();
    await writeJudgingAudit(trx, {
      action: 'assignment.delete',
      userId: actor.userId,
      entity: 'assignment',
      entityId: assignmentId,
      ip: actor.ip,
      details: { exam_id: examId },
    });
  });
}
