import type { FastifyInstance } from 'fastify';
import {
  AccountService,
  ANY_PASSWORD_SCHEMA,
  clientOf,
  codeMessages,
  NO_BODY_SCHEMA,
  object,
  TWO_FACTOR_CODE_SCHEMA,
  TWO_FACTOR_ENROLMENT_SCHEMA,
} from '../../../server/index.js';
import { roleNames } from '../../../shared/roles.js';
import { ProfileTwoFactor } from './profile-two-factor.js';

const code = TWO_FACTOR_CODE_SCHEMA;
const data = (schema: object) => object({ data: schema }, ['data']);

/**
 * Two-factor from the signed-in account's profile (every role): its state, enrolment and turning it
 * off. The second step of a sign-in is the server's own (`/auth/login/2fa`).
 */
export async function twoFactorRoutes(app: FastifyInstance) {
  const profile = new ProfileTwoFactor(app.auth, new AccountService(app.auth, app.mailer, app.config, app.log));
  const anyRole = { roles: roleNames() };

  app.get(
    '/auth/2fa',
    {
      config: anyRole,
      schema: { response: { 200: data(object({ enabled: { type: 'boolean' }, recoveryCodesLeft: { type: 'integer' } }, ['enabled', 'recoveryCodesLeft'])) } },
    },
    async (request) => ({ data: await profile.status(request.user) }),
  );
  app.post(
    '/auth/2fa/setup',
    {
      config: anyRole,
      schema: { body: NO_BODY_SCHEMA, response: { 200: data(TWO_FACTOR_ENROLMENT_SCHEMA) } },
    },
    async (request) => ({ data: await profile.begin(request.user) }),
  );
  app.post<{ Body: { code: string } }>(
    '/auth/2fa/enable',
    {
      config: { ...anyRole, messages: { code: codeMessages } },
      schema: {
        body: object({ code }, ['code']),
        response: { 200: data(object({ recoveryCodes: { type: 'array', items: { type: 'string' } } }, ['recoveryCodes'])) },
      },
    },
    async (request) => ({ data: await profile.confirm(request.user, request.body.code, clientOf(request)) }),
  );
  app.post<{ Body: { password: string; code: string } }>(
    '/auth/2fa/disable',
    {
      config: {
        ...anyRole,
        messages: { code: codeMessages, password: { required: 'validation.currentPassword.required', minLength: 'validation.currentPassword.required' } },
      },
      schema: {
        body: object({ password: ANY_PASSWORD_SCHEMA, code }, ['password', 'code']),
        response: { 204: { type: 'null', description: 'Two-factor is off.' } },
      },
    },
    async (request, reply) => {
      await profile.disable(request.user, request.body, clientOf(request));
      return reply.status(204).send();
    },
  );
}
