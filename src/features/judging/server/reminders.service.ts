import { type Mailer, translate } from '../../../server/index.js';
import { jurorsWithWorkLeft } from './admin-views.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import type { JudgingDb } from './tables.js';

/**
 * Mails every active juror with work left in open exams (or in the one `examId`) a reminder with
 * the portal's link, and audits who was reminded. Answers how many were sent, through which
 * transport, and the jurors (without their e-mail).
 */
export async function sendReminders(db: JudgingDb, mail: { mailer: Mailer; publicUrl: string }, examId: number | undefined, actor: Actor) {
  const jurors = await jurorsWithWorkLeft(db, examId);
  const portal = `${mail.publicUrl}/jury`;
  for (const j of jurors) {
    await mail.mailer.send({
      to: j.email,
      subject: translate('en', 'judging.reminder.subject'),
      text: translate('en', 'judging.reminder.body', { name: j.name, count: String(j.pending), url: portal }),
    });
  }
  await writeJudgingAudit(db, {
    action: 'jury.reminders',
    userId: actor.userId,
    entity: 'exam',
    entityId: examId ?? 'all',
    ip: actor.ip,
    details: { jurors: jurors.map((j) => j.jury_id) },
  });
  return { sent: jurors.length, transport: mail.mailer.transport, jurors: jurors.map(({ email: _e, ...rest }) => rest) };
}
