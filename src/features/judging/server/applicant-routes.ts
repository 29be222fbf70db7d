import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { SystemTables } from '../../../server/index.js';
import { conflict, notFound } from '../../../server/index.js';
import { parseRecordId } from '../../../server/index.js';
import { writeJudgingAudit } from './judging-audit.js';
import { AccountsAdmin } from '../../accounts/server.js';
import type { UserRow } from '../../../server/index.js';
import { clientOf } from '../../../server/index.js';

/**
 * Jury applicants' decisions, admins only (the routes name no roles): approve creates
 * the juror from the application (with the round given) and, in the same transaction, the juror's
 * invited account linked to it, then mails the accounts screen's invitation (a 72 h single-use
 * set-password link; the log when no mail transport); reject records the reason. Only an
 * application still `applied` can be decided. Both are audited.
 */
export async function applicantRoutes(app: FastifyInstance) {
  const invites = new AccountsAdmin(app);
  const idOf = (request: FastifyRequest) => parseRecordId(app.entities.byName.get('applicant')!, (request.params as { id: string }).id);
  const pending = async (trx: typeof app.db, id: number) => {
    const row = (await sql<{ id: number; name: string; email: string; company: string | null; country: string; status: string }>`
      select id, name, email, company, country, status from applicants where id = ${id} for update`.execute(trx)).rows[0];
    if (!row) throw notFound('Applicant not found.');
    if (row.status !== 'applied') {
      throw conflict(`This application was already ${row.status}.`, [{ path: 'status', keyword: 'decided', messageKey: 'judging.errors.already_decided', params: { status: row.status } }]);
    }
    return row;
  };

  app.post<{ Body: { round: number } }>(
    '/applicants/:id/approve',
    { schema: { body: { type: 'object', additionalProperties: false, properties: { round: { type: 'integer', minimum: 1, maximum: 2, default: 1 } } } } },
    async (request) => {
      const id = idOf(request);
      let account: UserRow | undefined;
      const row = await app.db.transaction().execute(async (trx) => {
        const applicant = await pending(trx, id);
        const taken = (await sql`select 1 from juries where lower(email) = ${applicant.email.toLowerCase()}`.execute(trx)).rows.length > 0;
        if (taken) throw conflict('A juror already has this e-mail.', [{ path: 'email', keyword: 'unique', messageKey: 'validation.email.unique', params: {} }]);
        const jury = (await sql<{ id: number }>`insert into juries (name, email, company, country, round, is_active)
          values (${applicant.name}, ${applicant.email}, ${applicant.company}, ${applicant.country}, ${request.body?.round ?? 1}, true) returning id`.execute(trx)).rows[0]!;
        account = await invites.createInvited(trx as unknown as Kysely<SystemTables>, request.user, { name: applicant.name, email: applicant.email, role: 'juror', jury_id: jury.id }, clientOf(request));
        const updated = (await sql<Record<string, unknown>>`update applicants set status = 'approved', jury_id = ${jury.id}, updated_at = now() where id = ${id} returning *`.execute(trx)).rows[0]!;
        await writeJudgingAudit(trx, { action: 'applicant.approve', userId: request.user.id, entity: 'applicant', entityId: id, ip: request.ip, details: { jury_id: jury.id, account_id: account.id } });
        return updated;
      });
      // After the commit: the link's token row and the mail are not undone by a rollback.
      await invites.sendInvitation(account!, request.user);
      return { data: { ...row, account_id: account!.id } };
    },
  );

  app.post<{ Body: { reason: string } }>(
    '/applicants/:id/reject',
    {
      config: { messages: { reason: { required: 'judging.errors.reason_length', minLength: 'judging.errors.reason_length', maxLength: 'judging.errors.reason_length' } } },
      schema: { body: { type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: { type: 'string', minLength: 3, maxLength: 500 } } } },
    },
    async (request) => {
      const id = idOf(request);
      return app.db.transaction().execute(async (trx) => {
        await pending(trx, id);
        const reason = request.body.reason.trim();
        const row = (await sql`update applicants set status = 'rejected', rejection_reason = ${reason}, updated_at = now() where id = ${id} returning *`.execute(trx)).rows[0];
        await writeJudgingAudit(trx, { action: 'applicant.reject', userId: request.user.id, entity: 'applicant', entityId: id, ip: request.ip, details: { reason } });
        return { data: row };
      });
    },
  );
}
