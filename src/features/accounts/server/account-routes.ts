import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  authUserSchema,
  badRequest,
  clientOf,
  EMAIL_SCHEMA,
  emailMessages,
  NAME_SCHEMA,
  NEW_PASSWORD_SCHEMA,
  NO_BODY_SCHEMA,
  nameMessages,
  object,
  passwordMessages,
} from '../../../server/index.js';
import { roleNames } from '../../../shared/roles.js';
import { linkBodyMessages, linkBodyProperties } from './account-links.js';
import { type AccountChanges, AccountsAdmin, type InviteInput, type RegisterInput } from './accounts-admin.js';

const roleMessages = { required: 'validation.role.invalid', enum: 'validation.role.invalid', type: 'validation.role.invalid' };
const nullableString = { type: ['string', 'null'] } as const;
const idParams = object({ id: { type: 'string', description: 'The account id.' } }, ['id']);

/** One account as the accounts screen lists it (`AccountSummary`), with the declared role links' columns. */
function accountSchema() {
  return object(
    {
      id: { type: 'integer' },
      name: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      ...Object.fromEntries(Object.keys(linkBodyProperties()).map((column) => [column, { type: ['integer', 'null'] }])),
      status: { type: 'string', enum: ['active', 'invited', 'disabled'] },
      last_login_at: nullableString,
      two_factor: { type: 'boolean' },
      invited_at: nullableString,
      disabled_at: nullableString,
      created_at: { type: 'string' },
    },
    ['id', 'name', 'email', 'role', 'status', 'two_factor', 'created_at'],
  );
}

/** One sign-in of an account (`SignInRecord`). */
const signInSchema = object(
  { started_at: { type: 'string' }, ip: nullableString, user_agent: nullableString, ended: { type: 'string' }, ended_at: nullableString },
  ['started_at', 'ended'],
);

const data = (schema: object) => object({ data: schema }, ['data']);

function accountId(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw badRequest('Invalid account ID');
  return id;
}

/**
 * The accounts screen's API and registering an account with a password: admins only, like every
 * route that names no roles. The bodies take the declared roles and their links (`jury_id`).
 */
export async function accountRoutes(app: FastifyInstance) {
  const admin = new AccountsAdmin(app);
  const role = { type: 'string', enum: roleNames() };
  const links = linkBodyProperties();
  const linkMessages = linkBodyMessages();
  const account = data(accountSchema());
  const oneAccount = { params: idParams, response: { 200: account } };
  // An action on an account: no body.
  const accountAction = { ...oneAccount, body: NO_BODY_SCHEMA };

  app.get('/accounts', { schema: { response: { 200: data({ type: 'array', items: accountSchema() }) } } }, async () => ({ data: await admin.list() }));

  app.post<{ Body: InviteInput }>(
    '/accounts',
    {
      config: { messages: { name: nameMessages, email: emailMessages, role: roleMessages, ...linkMessages } },
      schema: { body: object({ name: NAME_SCHEMA, email: EMAIL_SCHEMA, role, ...links }, ['name', 'email', 'role']), response: { 201: account } },
    },
    async (request, reply) => reply.status(201).send({ data: await admin.invite(request.user, request.body, clientOf(request)) }),
  );

  app.put<{ Body: AccountChanges }>(
    '/accounts/:id',
    {
      config: { messages: { name: nameMessages, role: roleMessages, ...linkMessages } },
      schema: { ...oneAccount, body: object({ name: NAME_SCHEMA, role, ...links }) },
    },
    async (request) => ({ data: await admin.update(request.user, accountId(request), request.body, clientOf(request)) }),
  );

  app.post('/accounts/:id/resend', { schema: accountAction }, async (request) => ({
    data: await admin.resend(request.user, accountId(request), clientOf(request)),
  }));
  app.post('/accounts/:id/disable', { schema: accountAction }, async (request) => ({
    data: await admin.disable(request.user, accountId(request), clientOf(request)),
  }));
  app.post('/accounts/:id/enable', { schema: accountAction }, async (request) => ({
    data: await admin.enable(request.user, accountId(request), clientOf(request)),
  }));
  app.post('/accounts/:id/reset-two-factor', { schema: accountAction }, async (request) => ({
    data: await admin.resetTwoFactor(request.user, accountId(request), clientOf(request)),
  }));
  app.get('/accounts/:id/sessions', { schema: { params: idParams, response: { 200: data({ type: 'array', items: signInSchema }) } } }, async (request) => ({
    data: await admin.history(accountId(request)),
  }));

  app.post<{ Body: RegisterInput }>(
    '/auth/register',
    {
      config: {
        messages: {
          name: nameMessages,
          email: emailMessages,
          password: passwordMessages,
          role: { enum: 'validation.role.invalid', type: 'validation.role.invalid' },
          ...linkMessages,
        },
      },
      schema: {
        body: object({ name: NAME_SCHEMA, email: EMAIL_SCHEMA, password: NEW_PASSWORD_SCHEMA, role, ...links }, ['name', 'email', 'password']),
        response: { 201: data(authUserSchema()) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await admin.register(request.user, request.body, clientOf(request)) }),
  );
}
