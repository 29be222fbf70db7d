import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ADMIN_ROLE, DEFAULT_ROUTE_ROLES, isRole, type Role, roleNames } from '../../shared/roles.js';
import { type AuthContext, AuthService } from '../auth/auth-service.js';
import { ensureFirstAdmin } from '../auth/first-start.js';
import { createMailer, type Mailer } from '../auth/mailer.js';
import { purgeExpiredResets } from '../auth/password-resets.js';
import { purgeOldSessions } from '../auth/sessions.js';
import { purgeThrottles } from '../auth/throttle.js';
import { TOTP_KEY_LABEL } from '../auth/totp.js';
import { deriveKey, describeDataKey } from '../data-key.js';
import { forbidden } from '../errors.js';
import { registeredServerFeatures } from '../features.js';

export type { AuthContext } from '../auth/auth-service.js';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** The access token of a request: `Authorization: Bearer <jwt>`, else `x-access-token`. */
export function accessTokenOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = request.headers['x-access-token'];
  return typeof header === 'string' && header.trim() ? header.trim() : undefined;
}

/**
 * At start: every stored TOTP secret must open with this server's keys. Secrets of an earlier key of
 * this server are sealed again; secrets of another server's key (a backup restored without its data
 * key) are said now, with what to do, instead of as a failed sign-in later.
 */
async function checkTwoFactorSecrets(app: FastifyInstance) {
  const check = await app.auth.twoFactor.checkSecrets(app.db);
  if (check.resealed > 0) app.log.info({ resealed: check.resealed }, 'two-factor secrets sealed again with the data key');
  const locked = check.unreadable.filter((account) => account.enabled);
  if (check.unreadable.length === 0) return;
  const message =
    `${check.unreadable.length} account(s) have two-factor secrets this server cannot decrypt (${locked.map((a) => a.email).join(', ') || 'pending enrolments only'}): ` +
    `they were sealed with another data key. This server's key is ${describeDataKey(app.dataKey, app.config.dataDir)}. ` +
    'Start it with the data key of the server the backup came from (DATA_KEY, or copy its DATA_DIR/data-key), or have an admin reset ' +
    "those accounts' two-factor (Accounts screen); their recovery codes still sign in.";
  app.log.error({ accounts: check.unreadable.map((a) => a.id), key: app.dataKey.id }, message);
  app.startupNotes.push(`Two-factor: ${message}`);
}

/** Throws when a route allows a role no feature declared (a typo would lock its callers out). */
export function assertDeclaredRoles(route: { method: string | string[]; url: string; config?: { roles?: readonly Role[] } }): void {
  const unknown = (route.config?.roles ?? []).filter((role) => !isRole(role));
  if (unknown.length > 0) {
    throw new Error(
      `The route ${[route.method].flat().join(',')} ${route.url} allows the undeclared role(s) ${unknown.join(', ')}; declared: ${roleNames().join(', ')}.`,
    );
  }
}

/**
 * The auth guard and services. Creates the first admin on an empty database, decorates
 * `app.auth` and `app.mailer`, and checks every request to an `/api` route that is not marked
 * `config: { public: true }`: a valid access token of a live session (else 401) whose role the
 * route allows (`config: { roles: ['reviewer', 'admin'] }`; admins only when a route names none),
 * else 403. Unmatched paths are left to the not-found handler. Roles are the features' declarations
 * (`src/shared/roles.ts`): a route naming a role nobody declared stops start-up.
 */
export const authPlugin = fp(async function authPlugin(app: FastifyInstance) {
  if (!isRole(ADMIN_ROLE)) {
    throw new Error(
      `No feature declares the "${ADMIN_ROLE}" role (registerRoles), which the first account gets; declared: ${roleNames().join(', ') || 'none'}.`,
    );
  }
  app.addHook('onRoute', assertDeclaredRoles);
  app.startupNotes.push(...(await ensureFirstAdmin(app.db, app.config)));

  // TOTP secrets are sealed with the data key's TOTP key; the JWT-derived key of earlier versions
  // still opens the secrets it sealed, which the start-up check seals again with the current key.
  const totpKeys = [deriveKey(app.dataKey.source, TOTP_KEY_LABEL), deriveKey(app.jwtSecret, TOTP_KEY_LABEL)].filter(
    (key, index, all) => all.findIndex((other) => other.equals(key)) === index,
  );
  app.decorate('auth', new AuthService(app.db, app.jwtSecret, app.log, { require2faForAdmins: app.config.require2faForAdmins, totpKeys }));
  await checkTwoFactorSecrets(app);
  const coreMailer = createMailer(app.config, app.log);
  const mailerFeature = registeredServerFeatures().find((feature) => feature.mailer);
  app.decorate('mailer', mailerFeature?.mailer ? mailerFeature.mailer(app, coreMailer) : coreMailer);
  app.decorateRequest('user', null as unknown as AuthContext);

  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions;
    if (!route.url?.startsWith('/api/')) return;
    if (route.config?.public) return;
    request.user = await app.auth.authenticate(accessTokenOf(request));
    const roles: readonly string[] = route.config?.roles ?? DEFAULT_ROUTE_ROLES;
    if (!roles.includes(request.user.role)) throw forbidden();
  });

  let closing = false;
  const timer = setInterval(() => {
    if (closing) return;
    Promise.all([purgeThrottles(app.db), purgeOldSessions(app.db), purgeExpiredResets(app.db)]).catch((error: Error) =>
      app.log.warn({ err: { message: error.message } }, 'auth housekeeping failed'),
    );
  }, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
    mailer: Mailer;
  }
  interface FastifyRequest {
    /** The signed-in account; set by the auth guard on every non-public `/api` route. */
    user: AuthContext;
  }
  interface FastifyContextConfig {
    /** Roles that may call this route; admins only when absent (ignored on public routes). */
    roles?: readonly Role[];
  }
}
