import { type Kysely, sql } from 'kysely';
import { type AuthContext, type ClientInfo, conflict, type Mailer, notFound, type SystemTables, translate, type UserRow } from '../../../server/index.js';
import { declaredLink, type InviteOutcome, type RecordAccounts } from '../../accounts/server.js';
import { writeJudgingAudit } from './judging-audit.js';
import type { JudgingDb } from './tables.js';

/** An application still to decide, locked in the caller's transaction: 404 when missing, 409 once decided. */
async function pendingApplicant(trx: JudgingDb, id: number) {
  const row = await trx
    .selectFrom('applicants')
    .select(['id', 'name', 'email', 'company', 'country', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Applicant not found.');
  if (row.status !== 'applied') {
    throw conflict(`This application was already ${row.status}.`, [
      { path: 'status', keyword: 'decided', messageKey: 'judging.errors.already_decided', params: { status: row.status } },
    ]);
  }
  return row;
}

/**
 * Approves an application: creates the juror from it (with the round given), or takes the juror
 * who already has its e-mail, and, in the same transaction, the juror's account linked to it (a new
 * invited account, or the unlinked juror account with that e-mail linked; a juror who has an
 * account keeps it), then mails the invitation once committed (the link's token and the mail are
 * not undone by a rollback). 409 when an account of another role has the e-mail. Audited. Answers
 * the application with the account's id.
 */
export async function approveApplicant(db: JudgingDb, accounts: RecordAccounts, input: { id: number; round: number; by: AuthContext; client: ClientInfo }) {
  let prepared: { outcome: InviteOutcome | 'kept'; account: UserRow } | undefined;
  const row = await db.transaction().execute(async (trx) => {
    const applicant = await pendingApplicant(trx, input.id);
    const existing = await trx.selectFrom('juries').select('id').where(sql<string>`lower(email)`, '=', applicant.email.toLowerCase()).executeTakeFirst();
    const jury =
      existing ??
      (await trx
        .insertInto('juries')
        .values({ name: applicant.name, email: applicant.email, company: applicant.company, country: applicant.country, round: input.round, is_active: true })
        .returning('id')
        .executeTakeFirstOrThrow());
    // The same transaction, typed as the accounts feature takes it.
    prepared = await accounts.prepare(trx as unknown as Kysely<SystemTables>, input.by, declaredLink('juror'), jury.id, input.client, 'keep');
    const updated = await trx
      .updateTable('applicants')
      .set({ status: 'approved', jury_id: jury.id, updated_at: sql<Date>`now()` })
      .where('id', '=', input.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeJudgingAudit(trx, {
      action: 'applicant.approve',
      userId: input.by.id,
      entity: 'applicant',
      entityId: input.id,
      ip: input.client.ip,
      details: { jury_id: jury.id, juror: existing ? 'existing' : 'created', account_id: prepared.account.id, account: prepared.outcome },
    });
    return updated;
  });
  await accounts.deliver(input.by, prepared!, input.client);
  return { ...row, account_id: prepared!.account.id };
}

/**
 * Rejects an application with the reason (trimmed). Audited; once committed, the applicant is told
 * by mail, with the reason, in the deciding admin's language (the log when no mail transport).
 * Answers the application.
 */
export async function rejectApplicant(db: JudgingDb, mail: ApplicantMail, input: { id: number; reason: string; by: AuthContext; ip: string | null }) {
  const row = await db.transaction().execute(async (trx) => {
    await pendingApplicant(trx, input.id);
    const reason = input.reason.trim();
    const row = await trx
      .updateTable('applicants')
      .set({ status: 'rejected', rejection_reason: reason, updated_at: sql<Date>`now()` })
      .where('id', '=', input.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeJudgingAudit(trx, {
      action: 'applicant.reject',
      userId: input.by.id,
      entity: 'applicant',
      entityId: input.id,
      ip: input.ip,
      details: { reason },
    });
    return row;
  });
  const language = mail.language ?? 'en';
  await mail.mailer.send({
    to: row.email,
    subject: translate(language, 'judging.applicants.rejected_mail.subject'),
    text: translate(language, 'judging.applicants.rejected_mail.body', { name: row.name, reason: row.rejection_reason ?? '' }),
  });
  return row;
}

/** How an applicant is told of a decision: the mailer (the log without a transport) and the language. */
export interface ApplicantMail {
  mailer: Mailer;
  language?: string | undefined;
}
