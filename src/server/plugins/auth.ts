import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type AuthContext, AuthService } from '../auth/auth-service.js';
import { ensureFirstAdmin } from '../auth/first-start.js';
import { createMailer, type Mailer } from '../auth/mailer.js';
import { purgeExpiredResets } from '../auth/password-resets.js';
import { purgeOldSessions } from '../auth/sessions.js';
import { purgeThrottles } from '../auth/throttle.js';
import { DEFAULT_ROUTE_ROLES, type Role } from '../../shared/roles.js';
import { forbidden } from '../errors.js';

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
 * The auth guard and services. Creates the first admin on an empty database, decorates
 * `app.auth` and `app.mailer`, and checks every request to an `/api` route that is not marked
 * `config: { public: true }`: a valid access token of a live session (else 401) whose role the
 * route allows (`config: { roles: ['juror', 'admin'] }`; admins only when a route names none),
 * else 403. Unmatched paths are left to the not-found handler.
 */
export const authPlugin = fp(async function authPlugin(app: FastifyInstance) {
  app.startupNotes.push(...(await ensureFirstAdmin(app.db, app.config)));

  app.decorate(
    'auth',
    new AuthService(app.db, app.jwtSecret, app.log, { require2faForAdmins: app.config.require2faForAdmins, dataKey: app.config.dataKey }),
  );
  app.decorate('mailer', createMailer(app.config, app.log));
  app.decorateRequest('user', null as unknown as AuthContext);

  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions;
    if (!route.url || !route.url.startsWith('/api/')) return;
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
