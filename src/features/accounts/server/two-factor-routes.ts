import type { FastifyInstance } from 'fastify';
import { ROLES } from '../../../shared/roles.js';
import { AccountService } from '../../../server/index.js';
import { ProfileTwoFactor } from './profile-two-factor.js';
import { ANY_PASSWORD_SCHEMA, clientOf, object, rememberDevice } from '../../../server/index.js';

// A 6-digit code or a recovery code (`xxxxx-xxxxx`), spaces allowed around it.
const code = { type: 'string', minLength: 6, maxLength: 20, pattern: '^\\s*[A-Za-z0-9-]{6,13}\\s*$' } as const;
const challengeToken = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const codeMessages = { required: 'validation.twoFactor.codeRequired', minLength: 'validation.twoFactor.invalidCode', maxLength: 'validation.twoFactor.invalidCode', pattern: 'validation.twoFactor.invalidCode' };
const challengeMessages = { required: 'pages.twoFactor.challengeExpired', minLength: 'pages.twoFactor.challengeExpired' };

/**
 * Two-factor sign-in: the second step of a sign-in (public: the challenge token is the
 * credential) and enrolment from the profile (every role).
 */
export async function twoFactorRoutes(app: FastifyInstance) {
  const profile = new ProfileTwoFactor(app.auth, new AccountService(app.auth, app.mailer, app.config, app.log));
  const anyRole = { roles: ROLES };

  app.post<{ Body: { challengeToken: string; code: string } }>(
    '/auth/login/2fa',
    {
      config: { public: true, messages: { code: codeMessages, challengeToken: challengeMessages } },
      schema: { body: object({ challengeToken, code }, ['challengeToken', 'code']) },
    },
    async (request, reply) => {
      const answer = await app.auth.completeTwoFactor(request.body, clientOf(request));
      rememberDevice(app, request, reply, answer.data.email);
      return answer;
    },
  );
  app.post<{ Body: { challengeToken: string } }>(
    '/auth/login/2fa/setup',
    { config: { public: true, messages: { challengeToken: challengeMessages } }, schema: { body: object({ challengeToken }, ['challengeToken']) } },
    async (request) => ({ data: await app.auth.beginEnrolmentAtSignIn(request.body.challengeToken) }),
  );
  app.post<{ Body: { challengeToken: string; code: string } }>(
    '/auth/login/2fa/enable',
    {
      config: { public: true, messages: { code: codeMessages, challengeToken: challengeMessages } },
      schema: { body: object({ challengeToken, code }, ['challengeToken', 'code']) },
    },
    async (request, reply) => {
      const answer = await app.auth.confirmEnrolmentAtSignIn(request.body, clientOf(request));
      rememberDevice(app, request, reply, answer.data.email);
      return answer;
    },
  );

  app.get('/auth/2fa', { config: anyRole }, async (request) => ({ data: await profile.status(request.user) }));
  app.post('/auth/2fa/setup', { config: anyRole }, async (request) => ({ data: await profile.begin(request.user) }));
  app.post<{ Body: { code: string } }>(
    '/auth/2fa/enable',
    { config: { ...anyRole, messages: { code: codeMessages } }, schema: { body: object({ code }, ['code']) } },
    async (request) => ({ data: await profile.confirm(request.user, request.body.code, clientOf(request)) }),
  );
  app.post<{ Body: { password: string; code: string } }>(
    '/auth/2fa/disable',
    {
      config: { ...anyRole, messages: { code: codeMessages, password: { required: 'validation.currentPassword.required', minLength: 'validation.currentPassword.required' } } },
      schema: { body: object({ password: ANY_PASSWORD_SCHEMA, code }, ['password', 'code']) },
    },
    async (request, reply) => {
      await profile.disable(request.user, request.body, clientOf(request));
      return reply.status(204).send();
    },
  );
}
