import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientOf, parseRecordId } from '../../../server/index.js';
import { AccountsAdmin, RecordAccounts } from '../../accounts/server.js';
import { approveApplicant, rejectApplicant } from './applicants.service.js';
import { approveAnswer, approveBody, idParams, rejectAnswer, rejectBody, route } from './schemas.js';
import { judgingDb } from './tables.js';

/**
 * Jury applicants' decisions, admins only (the routes name no roles): approve creates
 * the juror from the application (with the round given; or takes the juror with its e-mail) and,
 * in the same transaction, the juror's account linked to it, then mails the accounts screen's
 * invitation (a 72 h single-use set-password link; the log when no mail transport); reject records
 * the reason and tells the applicant by mail. Only an
 * application still `applied` can be decided. Both are audited (applicants.service.ts).
 */
export async function applicantRoutes(app: FastifyInstance) {
  const db = judgingDb(app.db);
  const accounts = new RecordAccounts(app, new AccountsAdmin(app));
  const idOf = (request: FastifyRequest) => parseRecordId(app.entities.byName.get('applicant')!, (request.params as { id: string }).id);
  const applicant = idParams('Applicant');
  const mail = { mailer: app.mailer, publicUrl: app.config.publicUrl };

  app.post<{ Body: { round: number } }>(
    '/applicants/:id/approve',
    {
      schema: route('Approve an application: the juror, their invited account, and the invitation mailed.', {
        params: applicant,
        body: approveBody,
        response: { 200: approveAnswer },
      }),
    },
    async (request) => ({
      data: await approveApplicant(db, accounts, mail, { id: idOf(request), round: request.body?.round ?? 1, by: request.user, client: clientOf(request) }),
    }),
  );

  app.post<{ Body: { reason: string } }>(
    '/applicants/:id/reject',
    {
      config: {
        messages: {
          reason: { required: 'judging.errors.reason_length', minLength: 'judging.errors.reason_length', maxLength: 'judging.errors.reason_length' },
        },
      },
      schema: route('Reject an application, with the reason.', { params: applicant, body: rejectBody, response: { 200: rejectAnswer } }),
    },
    async (request) => ({
      data: await rejectApplicant(db, mail, { id: idOf(request), reason: request.body.reason, by: request.user, ip: request.ip ?? null }),
    }),
  );
}
