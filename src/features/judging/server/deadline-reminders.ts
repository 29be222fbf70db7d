import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ScheduledJob } from '../../../server/index.js';
import { type JudgingMail, juryPortal, mailDate, mailTo, recordRecipients } from './judging-mail.js';
import { type JudgingDb, judgingDb } from './tables.js';

/** Hours before an exam's `closes_at` a juror with work left is reminded, unless `DEADLINE_REMINDER_HOURS` says otherwise. */
export const DEFAULT_REMINDER_HOURS: readonly number[] = [48, 24];
/** Seconds between runs of the job unless `DEADLINE_REMINDER_SECONDS` says otherwise (0 turns it off). */
export const DEFAULT_REMINDER_SECONDS = 300;

/** `DEADLINE_REMINDER_HOURS` (`48,24`: whole hours from 1 to 720, comma-separated), largest first; the default without it. */
export function reminderHours(env: Record<string, string | undefined> = process.env): number[] {
  const raw = env.DEADLINE_REMINDER_HOURS?.trim();
  if (!raw) return [...DEFAULT_REMINDER_HOURS];
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part) || Number(part) < 1 || Number(part) > 720)) {
    throw new Error(`DEADLINE_REMINDER_HOURS must list whole hours from 1 to 720, comma-separated (48,24); got "${raw}".`);
  }
  return [...new Set(parts.map(Number))].sort((a, b) => b - a);
}

/** `DEADLINE_REMINDER_SECONDS` as whole seconds (0: off), else the default. */
export function reminderSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env.DEADLINE_REMINDER_SECONDS?.trim();
  if (!raw) return DEFAULT_REMINDER_SECONDS;
  if (!/^\d+$/.test(raw)) throw new Error(`DEADLINE_REMINDER_SECONDS must be a whole number of seconds (0 turns the reminders off); got "${raw}".`);
  return Number(raw);
}

/** One reminder written: which exam, juror, threshold, and how many entries were left. */
export interface DeadlineReminder {
  examId: number;
  juryId: number;
  hours: number;
  pending: number;
}

/**
 * Writes the deadline reminders now due: for each open exam whose `closes_at` is ahead, each
 * threshold `h` whose moment (`closes_at` − h hours) has come, each active juror with work left
 * (assigned or in progress) is mailed once. The smallest threshold due is the one mailed (a juror
 * assigned 20 h before the close gets the 24 h reminder, never a late 48 h one), and every threshold
 * due is recorded with it; the record's insert and the mail share a transaction, so a reminder goes
 * exactly once per exam, juror and threshold across runs, restarts and servers.
 */
export async function sendDeadlineReminders(db: JudgingDb, mail: JudgingMail, hours: readonly number[] = reminderHours()): Promise<DeadlineReminder[]> {
  if (hours.length === 0) return [];
  const largest = Math.max(...hours);
  const exams = (
    await sql<{ id: number; name: string; closes_at: Date | string; hours_left: number }>`
      select id, name, closes_at, extract(epoch from (closes_at - now())) / 3600 as hours_left from exams
      where status = 'open' and closes_at > now() and closes_at <= now() + make_interval(hours => ${largest})
      order by id`.execute(db)
  ).rows;
  const written: DeadlineReminder[] = [];
  for (const exam of exams) {
    const left = Number(exam.hours_left);
    const due = hours.filter((h) => left <= h);
    if (due.length === 0) continue;
    const smallest = Math.min(...due);
    await db.transaction().execute(async (trx) => {
      const jurors = (
        await sql<{ jury_id: number; pending: number }>`
          select a.jury_id, count(*)::int as pending from assignments a join juries j on j.id = a.jury_id
          where a.exam_id = ${exam.id} and j.is_active and a.status in ('assigned', 'in_progress')
            and not exists (select 1 from judging_deadline_reminders r where r.exam_id = ${exam.id} and r.jury_id = a.jury_id and r.hours = ${smallest})
          group by a.jury_id order by a.jury_id`.execute(trx)
      ).rows;
      const recipients = await recordRecipients(
        trx,
        'jury',
        jurors.map((j) => j.jury_id),
      );
      for (const juror of jurors) {
        const inserted = (
          await sql<{ hours: number }>`
            insert into judging_deadline_reminders (exam_id, jury_id, hours)
            values ${sql.join(due.map((h) => sql`(${exam.id}, ${juror.jury_id}, ${h})`))}
            on conflict do nothing returning hours`.execute(trx)
        ).rows.map((row) => Number(row.hours));
        const to = recipients.get(juror.jury_id);
        if (!inserted.includes(smallest) || !to) continue;
        await mailTo(trx, mail, to, 'deadlineReminder', {
          exam: exam.name,
          count: Number(juror.pending),
          hours: Math.max(1, Math.round(left)),
          closes: mailDate(exam.closes_at, to.language, 'emails.examOpened.noDeadline'),
          url: juryPortal(mail),
        });
        written.push({ examId: exam.id, juryId: juror.jury_id, hours: smallest, pending: Number(juror.pending) });
      }
    });
  }
  return written;
}

/** The deadline reminders as a job of the one scheduler (each run on one server). */
export const deadlineRemindersJob: ScheduledJob = {
  name: 'judging-deadline-reminders',
  everySeconds: () => reminderSeconds(),
  async run(app: FastifyInstance) {
    const written = await sendDeadlineReminders(judgingDb(app.db), { mailer: app.mailer, publicUrl: app.config.publicUrl });
    if (written.length > 0) app.log.info({ reminders: written.length }, 'deadline reminders written');
    return written;
  },
};
