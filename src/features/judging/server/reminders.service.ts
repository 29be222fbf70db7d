import { jurorsWithWorkLeft } from './admin-views.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import { type JudgingMail, juryPortal, mailTo, recordRecipients } from './judging-mail.js';
import type { JudgingDb } from './tables.js';

/**
 * Mails every active juror with work left in open exams (or in the one `examId`) a reminder with
 * the portal's link, each in their own language (the `gradingReminder` template), and audits who was
 * reminded, in one transaction (the mails exist exactly when the audit entry does). A mail that
 * cannot be written does not stop the others. Answers how many were written and how many were not
 * (a juror without an e-mail, or a mail refused), the entries still to grade
 * of the jurors reminded, through which transport, and the jurors reminded (without their e-mail).
 */
export async function sendReminders(db: JudgingDb, mail: JudgingMail, examId: number | undefined, actor: Actor) {
  return db.transaction().execute(async (trx) => {
    const jurors = await jurorsWithWorkLeft(trx, examId);
    const recipients = await recordRecipients(
      trx,
      'jury',
      jurors.map((j) => j.jury_id),
    );
    const reminded: typeof jurors = [];
    for (const j of jurors) {
      const to = recipients.get(j.jury_id);
      if (!to) continue;
      try {
        await mailTo(trx, mail, to, 'gradingReminder', { count: Number(j.pending), url: juryPortal(mail) });
        reminded.push(j);
      } catch {
        // Counted as failed in the answer; the audit names only the jurors reminded.
      }
    }
    await writeJudgingAudit(trx, {
      action: 'jury.reminders',
      userId: actor.userId,
      entity: 'exam',
      entityId: examId ?? 'all',
      ip: actor.ip,
      details: { jurors: reminded.map((j) => j.jury_id), failed: jurors.length - reminded.length },
    });
    return {
      sent: reminded.length,
      failed: jurors.length - reminded.length,
      entries: reminded.reduce((sum, j) => sum + Number(j.pending), 0),
      transport: mail.mailer.transport,
      jurors: reminded.map(({ email: _e, ...rest }) => rest),
    };
  });
}
