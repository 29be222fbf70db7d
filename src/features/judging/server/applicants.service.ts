import { type Kysely, sql } from 'kysely';
import {
  type AuthContext,
  type ClientInfo,
  conflict,
  notFound,
  programmeLanguage,
  recipientLanguage,
  type SystemTables,
  type UserRow,
} from '../../../server/index.js';
import { declaredLink, type InviteOutcome, type RecordAccounts } from '../../accounts/server.js';
import { writeJudgingAudit } from './judging-audit.js';
import { type JudgingMail, juryPortal } from './judging-mail.js';
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
 * account keeps it); in the same transaction the applicant is mailed the approval (in the account's
 * language) and, when due, the invitation. 409 when an account of another role has the e-mail.
 * Audited. Answers the application with the account's id.
 */
export async function approveApplicant(
  db: JudgingDb,
  accounts: RecordAccounts,
  mail: JudgingMail,
  input: { id: number; round: number; by: AuthContext; client: ClientInfo },
) {
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
    const system = trx as unknown as Kysely<SystemTables>;
    prepared = await accounts.prepare(system, input.by, declaredLink('juror'), jury.id, input.client, 'keep');
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
    const account = prepared.account;
    await mail.mailer.send(
      {
        to: applicant.email,
        userId: account.id,
        language: await recipientLanguage(trx, account),
        template: 'applicantApproved',
        vars: { name: applicant.name, round: input.round, url: juryPortal(mail) },
      },
      { db: trx },
    );
    await accounts.deliver(system, input.by, prepared, input.client);
    return updated;
  });
  return { ...row, account_id: prepared!.account.id };
}

/**
 * Rejects an application with the reason (trimmed). Audited; in the same transaction the applicant
 * is told by mail, with the reason, in the programme's default language (an applicant has no
 * account). Answers the application.
 */
export async function rejectApplicant(db: JudgingDb, mail: JudgingMail, input: { id: number; reason: string; by: AuthContext; ip: string | null }) {
  return db.transaction().execute(async (trx) => {
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
    await mail.mailer.send(
      { to: row.email, language: await programmeLanguage(trx), template: 'applicantRejected', vars: { name: row.name, reason } },
      { db: trx },
    );
    return row;
  });
}
