import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROLES } from '../../../shared/roles.js';
import { AccountService } from '../../../server/index.js';
import { type AccountChanges, AccountsAdmin, type InviteInput } from './accounts-admin.js';
import { juryRecordExists } from './jury-link.js';
import { badRequest } from '../../../server/index.js';
import { clientOf, EMAIL_SCHEMA, emailMessages, NAME_SCHEMA, nameMessages, object } from '../../../server/index.js';

const roleMessages = { required: 'validation.role.invalid', enum: 'validation.role.invalid', type: 'validation.role.invalid' };
const juryMessages = { type: 'validation.juryId.invalid', minimum: 'validation.juryId.invalid' };
const role = { type: 'string', enum: [...ROLES] } as const;
const juryId = { type: ['integer', 'null'], minimum: 1 } as const;

function accountId(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw badRequest('Invalid account ID');
  return id;
}

/** The accounts screen's API: admins only, like every route that names no roles. */
export async function accountRoutes(app: FastifyInstance) {
  const accounts = new AccountService(app.auth, app.mailer, app.config, app.log, (id, db) => juryRecordExists(db, app.entities, id));
  const admin = new AccountsAdmin(app.auth, accounts, app.mailer, app.config, app.log);

  app.get('/accounts', async () => ({ data: await admin.list() }));

  app.post<{ Body: InviteInput }>(
    '/accounts',
    {
      config: { messages: { name: nameMessages, email: emailMessages, role: roleMessages, jury_id: juryMessages } },
      schema: { body: object({ name: NAME_SCHEMA, email: EMAIL_SCHEMA, role, jury_id: juryId }, ['name', 'email', 'role']) },
    },
    async (request, reply) => reply.status(201).send({ data: await admin.invite(request.user, request.body, clientOf(request)) }),
  );

  app.put<{ Body: AccountChanges }>(
    '/accounts/:id',
    {
      config: { messages: { name: nameMessages, role: roleMessages, jury_id: juryMessages } },
      schema: { body: object({ name: NAME_SCHEMA, role, jury_id: juryId }) },
    },
    async (request) => ({ data: await admin.update(request.user, accountId(request), request.body, clientOf(request)) }),
  );

  app.post('/accounts/:id/resend', async (request) => ({ data: await admin.resend(request.user, accountId(request), clientOf(request)) }));
  app.post('/accounts/:id/disable', async (request) => ({ data: await admin.disable(request.user, accountId(request), clientOf(request)) }));
  app.post('/accounts/:id/enable', async (request) => ({ data: await admin.enable(request.user, accountId(request), clientOf(request)) }));
  app.get('/accounts/:id/sessions', async (request) => ({ data: await admin.history(accountId(request)) }));
}
