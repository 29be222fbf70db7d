import { sql } from 'kysely';
import { type Mailer, programmeLanguage, recipientLanguage, translate } from '../../../server/index.js';
import { roleLinks } from '../../../shared/roles.js';
import type { JudgingDb } from './tables.js';

/**
 * Judging's mail (DESIGN §18): who is told of an event, in which language, by which template. Each
 * message is written with `mailer.send(…, { db: trx })` in the transaction of its cause, so it exists
 * exactly when the cause does (the notifications feature's outbox sends it).
 */

/** What judging needs to mail: the app's mailer and the address links in mails start with. */
export interface JudgingMail {
  mailer: Mailer;
  publicUrl: string;
}

/** One person a mail goes to: the record's e-mail and name, their account (when linked) and its language. */
export interface Recipient {
  recordId: number;
  to: string;
  name: string;
  userId: number | null;
  language: Awaited<ReturnType<typeof programmeLanguage>>;
}

/** The jury portal's and the entrant portal's addresses. */
export const juryPortal = (mail: JudgingMail) => `${mail.publicUrl}/jury`;
export const entrantPortal = (mail: JudgingMail) => `${mail.publicUrl}/entries`;

/**
 * The people records of an entity stand for (`jury` → jurors, `customer` → submittors): each
 * record's e-mail and name, the account a role links to it (when that role is declared and the
 * account exists and is not disabled) and the language their mail is written in (the account's,
 * else the programme's default). Records without an e-mail are left out.
 */
export async function recordRecipients(db: JudgingDb, entity: 'jury' | 'customer', ids: readonly number[]): Promise<Map<number, Recipient>> {
  const unique = [...new Set(ids)];
  const found = new Map<number, Recipient>();
  if (unique.length === 0) return found;
  const table = entity === 'jury' ? 'juries' : 'customers';
  const link = roleLinks().find((candidate) => candidate.entity === entity);
  const rows = (
    await sql<{ id: number; email: string | null; name: string | null; user_id: number | null; preferences: unknown }>`
      select r.id, r.email, r.name, ${link ? sql`u.id` : sql`null`} as user_id, ${link ? sql`u.preferences` : sql`null`} as preferences
      from ${sql.table(table)} r
      ${link ? sql`left join users u on u.${sql.ref(link.column)} = r.id and u.disabled_at is null` : sql``}
      where r.id in (${sql.join(unique)}) order by r.id`.execute(db)
  ).rows;
  const fallback = await programmeLanguage(db);
  for (const row of rows) {
    if (!row.email || found.has(row.id)) continue;
    const preferences =
      typeof row.preferences === 'string' ? (JSON.parse(row.preferences) as Record<string, unknown>) : (row.preferences as Record<string, unknown> | null);
    found.set(row.id, {
      recordId: row.id,
      to: row.email,
      name: row.name ?? row.email,
      userId: row.user_id,
      language: row.user_id ? await recipientLanguage(db, { preferences }) : fallback,
    });
  }
  return found;
}

/** Writes one templated mail to a recipient in `trx` (the cause's transaction). */
export async function mailTo(trx: JudgingDb, mail: JudgingMail, to: Recipient, template: string, vars: Record<string, string | number>): Promise<void> {
  await mail.mailer.send({ to: to.to, userId: to.userId, language: to.language, template, vars: { name: to.name, ...vars } }, { db: trx });
}

const LOCALES: Record<string, string> = { en: 'en-GB', id: 'id-ID', ms: 'ms-MY' };

/** A moment as a mail in `language` writes it (date and time, UTC), or the template's words for no date. */
export function mailDate(value: Date | string | null | undefined, language: string, none: string): string {
  if (!value) return translate(language, none);
  const text = new Intl.DateTimeFormat(LOCALES[language] ?? 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(value));
  return `${text} UTC`;
}

/**
 * New assignments were saved: ONE mail per juror of the save (`counts`: juror → entries newly
 * assigned), written while the exam is open (a draft exam's jurors are told when it opens).
 */
export async function mailAssignmentsSaved(trx: JudgingDb, mail: JudgingMail, exam: { name: string }, counts: ReadonlyMap<number, number>): Promise<void> {
  const recipients = await recordRecipients(trx, 'jury', [...counts.keys()]);
  for (const [juryId, count] of counts) {
    const to = recipients.get(juryId);
    if (to && count > 0) await mailTo(trx, mail, to, 'assignmentsSaved', { exam: exam.name, count, url: juryPortal(mail) });
  }
}

/** An exam opened: each active juror with entries assigned in it is told how many, and when it closes. */
export async function mailExamOpened(trx: JudgingDb, mail: JudgingMail, exam: { id: number; name: string; closes_at: Date | string | null }): Promise<void> {
  const rows = (
    await sql<{ jury_id: number; n: number }>`
      select a.jury_id, count(*)::int as n from assignments a join juries j on j.id = a.jury_id
      where a.exam_id = ${exam.id} and j.is_active and a.status in ('assigned', 'in_progress')
      group by a.jury_id order by a.jury_id`.execute(trx)
  ).rows;
  const recipients = await recordRecipients(
    trx,
    'jury',
    rows.map((row) => row.jury_id),
  );
  for (const row of rows) {
    const to = recipients.get(row.jury_id);
    if (!to) continue;
    const closes = mailDate(exam.closes_at, to.language, 'emails.examOpened.noDeadline');
    await mailTo(trx, mail, to, 'examOpened', { exam: exam.name, count: Number(row.n), closes, url: juryPortal(mail) });
  }
}

/** A grade was reopened: its juror is told which entry (by its blind code), in which exam, and why. */
export async function mailGradeReopened(
  trx: JudgingDb,
  mail: JudgingMail,
  grade: { exam_id: number; contest_id: number; jury_id: number },
  reason: string,
): Promise<void> {
  const to = (await recordRecipients(trx, 'jury', [grade.jury_id])).get(grade.jury_id);
  if (!to) return;
  const exam = await trx.selectFrom('exams').select('name').where('id', '=', grade.exam_id).executeTakeFirst();
  const code = await trx
    .selectFrom('entry_codes')
    .select('code')
    .where('exam_id', '=', grade.exam_id)
    .where('contest_id', '=', grade.contest_id)
    .executeTakeFirst();
  await mailTo(trx, mail, to, 'gradeReopened', { exam: exam?.name ?? '', entry: code?.code ?? `#${grade.contest_id}`, reason, url: juryPortal(mail) });
}

/**
 * An entry was reviewed: its submittor is told it was approved, or rejected with the reason
 * (`title`: the entry's number, as the entrant portal shows it).
 */
export async function mailEntryReviewed(
  trx: JudgingDb,
  mail: JudgingMail,
  contest: { id: number; customer_id: number | null },
  decision: 'approve' | 'reject',
  reason: string | null,
): Promise<void> {
  if (contest.customer_id === null) return;
  const to = (await recordRecipients(trx, 'customer', [contest.customer_id])).get(contest.customer_id);
  if (!to) return;
  const title = `#${contest.id}`;
  if (decision === 'approve') await mailTo(trx, mail, to, 'entryApproved', { title });
  else await mailTo(trx, mail, to, 'entryRejected', { title, reason: reason ?? '' });
}
