import { sql } from 'kysely';
import { conflict, notFound, validationFailed } from '../../../server/index.js';
import { assertEditionWritable } from '../../editions/server.js';
import { type ContestReview, type ContestReviewInput, isReviewable, REVIEW_OUTCOME } from '../shared/contest-review.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import { type JudgingMail, mailEntryReviewed } from './judging-mail.js';
import type { JudgingDb } from './tables.js';

/**
 * An admin's review of an entry (DESIGN §19): approve (it becomes eligible for its category's
 * Round 1) or reject with a reason (422 `reason_required` without one). Only a `pending` or
 * `submitted` entry can be reviewed (409 `not_reviewable` otherwise), and not in an archived
 * edition (409 `edition_archived`). The status change, its audit entry (with the reason) and, with
 * `mail`, the mail telling the submittor share one transaction.
 */
export async function reviewContest(
  db: JudgingDb,
  contestId: number,
  input: ContestReviewInput,
  actor: Actor,
  mail?: JudgingMail,
): Promise<ContestReview & { reason: string | null }> {
  const reason = input.reason?.trim() || null;
  if (input.decision === 'reject' && !reason) {
    throw validationFailed([{ path: 'reason', keyword: 'reason_required', messageKey: 'judging.review.reason_required', params: {} }]);
  }
  return db.transaction().execute(async (trx) => {
    const contest = await trx
      .selectFrom('contests')
      .select(['id', 'status', 'category_id', 'edition_id', 'customer_id'])
      .where('id', '=', contestId)
      .forUpdate()
      .executeTakeFirst();
    if (!contest) throw notFound('Contest not found.');
    await assertEditionWritable(trx, contest.edition_id);
    if (!isReviewable(contest.status)) {
      throw conflict(`This entry is ${contest.status}: only a pending or submitted entry can be reviewed.`, [
        { path: '', keyword: 'not_reviewable', messageKey: 'judging.review.not_reviewable', params: { status: contest.status } },
      ]);
    }
    const status = REVIEW_OUTCOME[input.decision];
    const updated = await trx
      .updateTable('contests')
      .set({ status, updated_at: sql<Date>`now()` })
      .where('id', '=', contestId)
      .returning(['id', 'status', 'category_id', 'edition_id', 'customer_id'])
      .executeTakeFirstOrThrow();
    await writeJudgingAudit(trx, {
      action: input.decision === 'approve' ? 'contest.approve' : 'contest.reject',
      userId: actor.userId,
      entity: 'contest',
      entityId: contestId,
      ip: actor.ip,
      details: { from: contest.status, to: status, reason },
    });
    if (mail) await mailEntryReviewed(trx, mail, updated, input.decision, reason);
    return { ...updated, reason };
  });
}
