import { type Mailer, translate } from '../../../server/index.js';
import { jurorsWithWorkLeft } from './admin-views.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import type { JudgingDb } from './tables.js';

/**
 * Mails every active juror with work left in open exams (or in the one `examId`) a reminder with
 * the portal's link, and audits who was reminded. A mail that cannot be sent does not stop the
 * others. Answers how many were sent and how many failed, the entries still to grade of the jurors
 * reminded, through which transport, and the jurors reminded (without their e-mail).
 */
export async function sendReminders(db: JudgingDb, mail: { mailer: Mailer; publicUrl: string }, examId: number | undefined, actor: Actor) {
  const jurors = await jurorsWithWorkLeft(db, examId);
  const portal = `${mail.publicUrl}/jury`;
  const reminded: typeof jurors = [];
  for (const j of jurors) {
    try {
      await mail.mailer.send({
        to: j.email,
        subject: translate('en', 'judging.reminder.subject'),
        text: translate('en', 'judging.reminder.body', { name: j.name, count: String(j.pending), url: portal }),
      });
      reminded.push(j);
    } catch {
      // Counted as failed in the answer; the audit names only the jurors reminded.
    }
  }
  await writeJudgingAudit(db, {
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
}
