import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EMAIL_PATTERN } from '../../shared/descriptor/length-first.js';
import { roleLinks, roleNames } from '../../shared/roles.js';
import { AccountService, type ProfileInput } from '../auth/account-service.js';
import type { ClientInfo } from '../auth/auth-service.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE } from '../auth/lockout.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../auth/password.js';
import { accessTokenOf } from '../plugins/auth.js';

const email = { type: 'string', minLength: 1, maxLength: 254, pattern: EMAIL_PATTERN } as const;
export const EMAIL_SCHEMA = email;
const newPassword = { type: 'string', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX } as const;
export const NEW_PASSWORD_SCHEMA = newPassword;
// Long enough for any real password, short enough that nobody makes the KDF hash a megabyte.
const anyPassword = { type: 'string', minLength: 1, maxLength: 1024 } as const;
export const ANY_PASSWORD_SCHEMA = anyPassword;
const name = { type: 'string', minLength: 2, maxLength: 100, pattern: '\\S' } as const;
export const NAME_SCHEMA = name;

export const emailMessages = {
  required: 'validation.email.required',
  minLength: 'validation.email.required',
  pattern: 'validation.email.invalid',
  maxLength: 'validation.email.invalid',
  type: 'validation.email.invalid',
};
// Account passwords are 8-128; an entity's password field may have other limits, hence keys of their own.
export const passwordMessages = {
  required: 'validation.password.required',
  minLength: 'validation.adminPassword.min',
  maxLength: 'validation.adminPassword.max',
};
export const nameMessages = {
  required: 'validation.name.required',
  minLength: 'validation.name.min',
  maxLength: 'validation.name.max',
  pattern: 'validation.name.required',
};

export function object(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', additionalProperties: false, required, properties };
}

/**
 * The response schema of an {@link AuthUser} (`{ data: AuthUser }` answers), with the `userField` of
 * every declared role link: call it when registering a route, after the roles are declared.
 */
export function authUserSchema() {
  const nullableString = { type: ['string', 'null'] } as const;
  return object(
    {
      id: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      ...Object.fromEntries(roleLinks().map((link) => [link.userField, { type: ['integer', 'null'] }])),
      twoFactor: { type: 'boolean' },
      avatarUrl: nullableString,
      lastLoginTimestamp: nullableString,
      preferences: object({ theme: { type: 'string' }, language: { type: 'string' }, notifications: { type: 'boolean' } }, [
        'theme',
        'language',
        'notifications',
      ]),
    },
    ['id', 'name', 'email', 'role', 'avatarUrl', 'lastLoginTimestamp', 'preferences'],
  );
}

export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null, deviceCookie: request.cookies[DEVICE_COOKIE] };
}

/**
 * After a sign-in opens a session, this browser counts as known to the account (README "Sign-in
 * limits"): others' failures never hold it back.
 */
export function rememberDevice(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, email: string) {
  reply.setCookie(DEVICE_COOKIE, app.auth.lockout.deviceCookieAfterSignIn(email, clientOf(request).deviceCookie), {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: DEVICE_COOKIE_MAX_AGE,
  });
}

// A 6-digit code or a recovery code (`xxxxx-xxxxx`), spaces allowed around it.
const code = { type: 'string', minLength: 6, maxLength: 20, pattern: '^\\s*[A-Za-z0-9-]{6,13}\\s*$' } as const;
export const TWO_FACTOR_CODE_SCHEMA = code;
export const codeMessages = {
  required: 'validation.twoFactor.codeRequired',
  minLength: 'validation.twoFactor.invalidCode',
  maxLength: 'validation.twoFactor.invalidCode',
  pattern: 'validation.twoFactor.invalidCode',
};
const challengeToken = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const challengeMessages = { required: 'pages.twoFactor.challengeExpired', minLength: 'pages.twoFactor.challengeExpired' };

/** A `{data}` answer of the given schema. */
const data = (schema: object) => object({ data: schema }, ['data']);
/** An answer with no body. */
export const NO_CONTENT = (description: string) => ({ type: 'null', description });
/**
 * The body of a write that takes none: nothing, or an empty object (anything else is a 422). The
 * OpenAPI document marks it optional.
 */
export const NO_BODY_SCHEMA = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;

/** `LoginResponse`: a session opened (the access token, its life in seconds, the refresh token, the account). */
function loginResponseSchema(extra: Record<string, unknown> = {}) {
  return object({ token: { type: 'string' }, expiresIn: { type: 'integer' }, refreshToken: { type: 'string' }, data: authUserSchema(), ...extra }, [
    'token',
    'expiresIn',
    'refreshToken',
    'data',
    ...Object.keys(extra),
  ]);
}
/** `TwoFactorChallenge`: the password was right, a second step is due. */
const challengeSchema = object(
  { twoFactor: { type: 'string', enum: ['verify', 'enrol'] }, challengeToken: { type: 'string' }, expiresIn: { type: 'integer' } },
  ['twoFactor', 'challengeToken', 'expiresIn'],
);
/** `TwoFactorEnrolment`: the secret, its otpauth:// URI and that URI as a QR code. */
export const TWO_FACTOR_ENROLMENT_SCHEMA = object({ secret: { type: 'string' }, otpauthUrl: { type: 'string' }, qrCode: { type: 'string' } }, [
  'secret',
  'otpauthUrl',
  'qrCode',
]);

/** Sign-in (with its second step), sessions and the signed-in account's own profile and password, under /api. */
export async function authRoutes(app: FastifyInstance) {
  const accounts = new AccountService(app.auth, app.mailer, app.config, app.log);
  // The signed-in account's own routes: every role has a profile and a password.
  const anyRole = { roles: roleNames() };

  const login = {
    config: {
      public: true,
      messages: {
        email: emailMessages,
        password: { required: 'validation.password.required', minLength: 'validation.password.required', maxLength: 'validation.adminPassword.max' },
      },
    },
    schema: {
      body: object({ email, password: anyPassword }, ['email', 'password']),
      // if/then/else, not anyOf: the serialiser then tests only `if` (a session has a token), so a key
      // outside the schema is dropped, never a reason to refuse the answer.
      response: {
        200: {
          type: 'object',
          if: { type: 'object', required: ['token'] },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited.
          then: loginResponseSchema(),
          else: challengeSchema,
          description: 'A session (`LoginResponse`), or the second step a sign-in still needs (`TwoFactorChallenge`).',
        },
      },
    },
  };
  const signIn = async (request: FastifyRequest<{ Body: { email: string; password: string } }>, reply: FastifyReply) => {
    const client = clientOf(request);
    const answer = await app.auth.signIn(request.body, client);
    // A second step still to come: the browser becomes known once that step opens the session.
    if ('data' in answer) rememberDevice(app, request, reply, answer.data.email);
    return answer;
  };
  app.post('/login', login, signIn);
  app.post('/auth/login', login, signIn);

  // The second step of a sign-in whose account has two-factor on (or must enrol first, under
  // REQUIRE_2FA_FOR_ADMINS): public, the challenge token is the credential.
  app.post<{ Body: { challengeToken: string; code: string } }>(
    '/auth/login/2fa',
    {
      config: { public: true, messages: { code: codeMessages, challengeToken: challengeMessages } },
      schema: { body: object({ challengeToken, code }, ['challengeToken', 'code']), response: { 200: loginResponseSchema() } },
    },
    async (request, reply) => {
      const answer = await app.auth.completeTwoFactor(request.body, clientOf(request));
      rememberDevice(app, request, reply, answer.data.email);
      return answer;
    },
  );
  app.post<{ Body: { challengeToken: string } }>(
    '/auth/login/2fa/setup',
    {
      config: { public: true, messages: { challengeToken: challengeMessages } },
      schema: { body: object({ challengeToken }, ['challengeToken']), response: { 200: data(TWO_FACTOR_ENROLMENT_SCHEMA) } },
    },
    async (request) => ({ data: await app.auth.beginEnrolmentAtSignIn(request.body.challengeToken) }),
  );
  app.post<{ Body: { challengeToken: string; code: string } }>(
    '/auth/login/2fa/enable',
    {
      config: { public: true, messages: { code: codeMessages, challengeToken: challengeMessages } },
      schema: {
        body: object({ challengeToken, code }, ['challengeToken', 'code']),
        response: { 200: loginResponseSchema({ recoveryCodes: { type: 'array', items: { type: 'string' } } }) },
      },
    },
    async (request, reply) => {
      const answer = await app.auth.confirmEnrolmentAtSignIn(request.body, clientOf(request));
      rememberDevice(app, request, reply, answer.data.email);
      return answer;
    },
  );

  app.post<{ Body: { refreshToken: string } }>(
    '/auth/refresh',
    {
      config: { public: true, messages: { refreshToken: { required: 'validation.refreshToken.required' } } },
      schema: {
        body: object({ refreshToken: { type: 'string', minLength: 1, maxLength: 512 } }, ['refreshToken']),
        response: {
          200: object({ accessToken: { type: 'string' }, expiresIn: { type: 'integer' }, refreshToken: { type: 'string' } }, [
            'accessToken',
            'expiresIn',
            'refreshToken',
          ]),
        },
      },
    },
    async (request) => app.auth.refresh(request.body.refreshToken, clientOf(request)),
  );

  // Public so that a client whose access token has just expired can still end its session by
  // sending the refresh token; a request with neither ends nothing and still gets 204.
  const logout = {
    config: { public: true },
    schema: {
      body: { type: ['object', 'null'], additionalProperties: false, properties: { refreshToken: { type: 'string', maxLength: 512 } } },
      response: { 204: NO_CONTENT('Signed out (also when there was no session to end).') },
    },
  };
  const signOut = async (request: FastifyRequest<{ Body: { refreshToken?: string } | null }>, reply: FastifyReply) => {
    const sids = new Set<string>();
    const token = accessTokenOf(request);
    const claims = token ? await app.auth.verifyAccessToken(token) : null;
    if (claims) sids.add(claims.sid);
    const fromRefresh = request.body?.refreshToken ? app.auth.sessionOfRefreshToken(request.body.refreshToken) : null;
    if (fromRefresh) sids.add(fromRefresh);
    for (const sid of sids) await app.auth.logout(sid, clientOf(request));
    return reply.status(204).send();
  };
  app.post('/logout', logout, signOut);
  app.post('/oauth2/v2.0/logout', logout, signOut);

  const me = { config: anyRole, schema: { response: { 200: data(authUserSchema()) } } };
  app.get('/auth/me', me, async (request) => ({ data: await accounts.me(request.user) }));
  app.get('/auth/check', me, async (request) => ({ data: await accounts.me(request.user) }));

  app.put<{ Body: ProfileInput }>(
    '/auth/me',
    {
      config: {
        ...anyRole,
        messages: {
          name: nameMessages,
          email: emailMessages,
          avatarUrl: { pattern: 'validation.avatarUrl.invalid', maxLength: 'validation.avatarUrl.invalid', type: 'validation.avatarUrl.invalid' },
          currentPassword: { minLength: 'validation.currentPassword.required' },
        },
      },
      schema: {
        body: object({
          name,
          email,
          avatarUrl: { type: ['string', 'null'], maxLength: 2048, pattern: '^\\s*https?://[^\\s]+\\s*$' },
          preferences: object({
            theme: { type: 'string', enum: ['light', 'dark'] },
            language: { type: 'string', enum: ['en', 'id', 'ms'] },
            notifications: { type: 'boolean' },
          }),
          currentPassword: anyPassword,
        }),
        response: { 200: data(authUserSchema()) },
      },
    },
    async (request) => ({ data: await accounts.updateMe(request.user, request.body, clientOf(request)) }),
  );

  app.post<{ Body: { currentPassword: string; newPassword: string } }>(
    '/auth/change-password',
    {
      config: {
        ...anyRole,
        messages: {
          currentPassword: { required: 'validation.currentPassword.required', minLength: 'validation.currentPassword.required' },
          newPassword: passwordMessages,
        },
      },
      schema: {
        body: object({ currentPassword: anyPassword, newPassword }, ['currentPassword', 'newPassword']),
        response: { 204: NO_CONTENT('Changed; the other sessions are ended.') },
      },
    },
    async (request, reply) => {
      await accounts.changePassword(request.user, request.body, clientOf(request));
      return reply.status(204).send();
    },
  );

  app.post<{ Body: { email: string } }>(
    '/auth/forgot-password',
    {
      config: { public: true, messages: { email: emailMessages } },
      schema: { body: object({ email }, ['email']), response: { 202: NO_CONTENT('Accepted, whatever the address (accounts cannot be enumerated).') } },
    },
    async (request, reply) => {
      await accounts.forgotPassword(request.body, clientOf(request));
      return reply.status(202).send();
    },
  );

  app.post<{ Body: { token: string; password: string } }>(
    '/auth/reset-password',
    {
      config: {
        public: true,
        messages: { token: { required: 'validation.resetToken.required', minLength: 'validation.resetToken.required' }, password: passwordMessages },
      },
      schema: {
        body: object({ token: { type: 'string', minLength: 1, maxLength: 512 }, password: newPassword }, ['token', 'password']),
        response: { 204: NO_CONTENT('The password is set; every session of the account is ended.') },
      },
    },
    async (request, reply) => {
      await accounts.resetPassword(request.body, clientOf(request));
      return reply.status(204).send();
    },
  );
}
