import { type Kysely, sql } from 'kysely';
import { type AuthContext, type ClientInfo, conflict, notFound, type SystemTables, type UserRow } from '../../../server/index.js';
import type { AccountsAdmin } from '../../accounts/server.js';
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
 * Approves an application: creates the juror from it (with the round given) and, in the same
 * transaction, the juror's invited account linked to it (409 when a juror or an account has the
 * e-mail), then mails the account's invitation once committed (the link's token and the mail are
 * not undone by a rollback). Audited. Answers the application with the new account's id.
 */
export async function approveApplicant(db: JudgingDb, invites: AccountsAdmin, input: { id: number; round: number; by: AuthContext; client: ClientInfo }) {
  let account: UserRow | undefined;
  const row = await db.transaction().execute(async (trx) => {
    const applicant = await pendingApplicant(trx, input.id);
    const taken = await trx.selectFrom('juries').select('id').where(sql<string>`lower(email)`, '=', applicant.email.toLowerCase()).executeTakeFirst();
    if (taken) throw conflict('A juror already has this e-mail.', [{ path: 'email', keyword: 'unique', messageKey: 'validation.email.unique', params: {} }]);
    const jury = await trx
      .insertInto('juries')
      .values({ name: applicant.name, email: applicant.email, company: applicant.company, country: applicant.country, round: input.round, is_active: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The same transaction, typed as the accounts feature takes it.
    account = await invites.createInvited(
      trx as unknown as Kysely<SystemTables>,
      input.by,
      { name: applicant.name, email: applicant.email, role: 'juror', jury_id: jury.id },
      input.client,
    );
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
      details: { jury_id: jury.id, account_id: account.id },
    });
    return updated;
  });
  await invites.sendInvitation(account!, input.by);
  return { ...row, account_id: account!.id };
}

/** Rejects an application with the reason (trimmed). Audited; answers the application. */
export async function rejectApplicant(db: JudgingDb, input: { id: number; reason: string; by: AuthContext; ip: string | null }) {
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
    return row;
  });
}
