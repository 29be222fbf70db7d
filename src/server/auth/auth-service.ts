import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { LoginAnswer, LoginResponse, RefreshResponse, TwoFactorEnrolment } from '../../shared/api-contract.js';
import { ADMIN_ROLE } from '../../shared/roles.js';
import type { SystemTables } from '../db/system-tables.js';
import { badRequest, conflict, sessionReplaced, unauthenticated, validationFailed } from '../errors.js';
import { writeAudit } from './audit.js';
import type { ClientInfo } from './client-info.js';
import { Lockout } from './lockout.js';
import { hashPassword, needsRehash, verifyPassword } from './password.js';
import { SessionCache } from './session-cache.js';
import { createSession, getSessionState, REFRESH_GRACE_SECONDS, type RevokeReason, revokeSession, revokeUserSessions, rotateSession } from './sessions.js';
import { AccessTokenCache } from './token-cache.js';
import {
  ACCESS_TOKEN_TTL,
  CHALLENGE_TTL,
  type ChallengeClaims,
  makeRefreshToken,
  newSessionId,
  parseRefreshToken,
  refreshKeyFrom,
  signAccessToken,
  signChallengeToken,
  verifyAccessToken,
  verifyChallengeToken,
} from './tokens.js';
import { totpKeyFrom } from './totp.js';
import { TwoFactor, TwoFactorKeyError } from './two-factor.js';
import { findUserByEmail, findUserById, lockUser, normalizeEmail, recordLogin, setPasswordHash, toAuthUser, type UserRow } from './users.js';

/** The signed-in account on a request (`request.user`). */
export interface AuthContext {
  id: number;
  email: string;
  name: string;
  /** From the access token: a declared role's name (`src/shared/roles.ts`). */
  role: string;
  sid: string;
}

export type { ClientInfo } from './client-info.js';

const INVALID_CREDENTIALS = 'Invalid email or password.';
const CHALLENGE_ENDED = () =>
  badRequest('This sign-in has expired. Please sign in again.', [
    { path: 'challengeToken', keyword: 'expired', messageKey: 'pages.twoFactor.challengeExpired', params: {} },
  ]);
/** A wrong, reused or old code: a field error, so the code step stays on screen. */
export const invalidCode = () =>
  validationFailed(
    [{ path: 'code', keyword: 'code', messageKey: 'validation.twoFactor.invalidCode', params: {} }],
    'The code is incorrect or has already been used.',
  );

/**
 * A TOTP secret no key of this server opens (restored without its data key): a field error, so the
 * code step stays on screen and a recovery code still works; never a 500.
 */
export const codeKeyLost = () =>
  validationFailed(
    [{ path: 'code', keyword: 'code', messageKey: 'validation.twoFactor.keyLost', params: {} }],
    'Authenticator codes cannot be checked on this server (its data key is not the one the code was set up with). Use a recovery code, or ask an administrator to reset two-factor sign-in for this account.',
  );

/** Options of the sign-in flow from the configuration. */
export interface AuthOptions {
  /** Admins without two-factor must enrol before their session opens. */
  require2faForAdmins?: boolean;
  /** Key material for the TOTP secrets (else derived from the JWT secret). */
  dataKey?: string;
  /**
   * The TOTP secrets' keys, the sealing one first (from the server's data key, `src/server/data-key.ts`);
   * the others only open secrets sealed earlier. Overrides `dataKey`.
   */
  totpKeys?: Buffer[];
}
const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/** An account's last sign-in as epoch milliseconds (0 when it never signed in). */
const lastLoginMs = (user: Pick<UserRow, 'last_login_at'>): number => (user.last_login_at ? new Date(user.last_login_at as unknown as string).getTime() : 0);

/**
 * Sign-in, refresh-token rotation, sign-out and the per-request session check. One instance per
 * app (`app.auth`); it keeps a ≤1 s cache of session checks and drops entries it revokes itself.
 */
export class AuthService {
  readonly cache = new SessionCache();
  /** Verified access tokens until their `exp`; liveness is still checked through {@link cache}. */
  readonly tokens = new AccessTokenCache();
  /** Sign-in and reset-mail limits, shared with the account service. */
  readonly lockout: Lockout;
  readonly #refreshKey: Buffer;

  readonly twoFactor: TwoFactor;

  constructor(
    readonly db: Kysely<SystemTables>,
    private readonly jwtSecret: Uint8Array,
    private readonly log: FastifyBaseLogger,
    private readonly options: AuthOptions = {},
  ) {
    this.#refreshKey = refreshKeyFrom(jwtSecret);
    this.lockout = new Lockout(db, jwtSecret);
    this.twoFactor = new TwoFactor(options.totpKeys?.length ? options.totpKeys : totpKeyFrom(jwtSecret, options.dataKey));
  }

  /**
   * Checks e-mail and password, limited by {@link Lockout}, and opens a session that
   * replaces the account's other sessions, or, when two-factor is on (or due, for an admin under
   * REQUIRE_2FA_FOR_ADMINS), answers a challenge for the second step instead. Unknown e-mail, wrong
   * password, disabled or not yet activated account all answer the same 401 after the same work.
   */
  async signIn(input: { email: string; password: string }, client: ClientInfo): Promise<LoginAnswer> {
    const email = normalizeEmail(input.email);
    const admission = await this.lockout.admit('login', email, client);

    const user = await findUserByEmail(this.db, email);
    const matches = await verifyPassword(input.password, user?.password_hash ?? null);
    if (!user || !matches || user.disabled_at) {
      await this.lockout.failed(admission);
      await writeAudit(this.db, { action: 'auth.login_failed', userId: user?.id ?? null, ip: client.ip, details: { email } });
      throw unauthenticated(INVALID_CREDENTIALS);
    }

    await this.lockout.succeeded(admission);
    if (user.password_hash && needsRehash(user.password_hash)) await setPasswordHash(this.db, user.id, await hashPassword(input.password));

    if (user.totp_enabled_at) return this.challenge(user, 'verify');
    if (this.options.require2faForAdmins && user.role === ADMIN_ROLE) return this.challenge(user, 'enrol');
    return this.openSession(user, client);
  }

  private async challenge(user: UserRow, step: ChallengeClaims['step']): Promise<LoginAnswer> {
    const since = lastLoginMs(user);
    return { twoFactor: step, challengeToken: await signChallengeToken(this.jwtSecret, { userId: user.id, step, since }), expiresIn: CHALLENGE_TTL };
  }

  /** The account a challenge token names, when the token is valid for `step` and the account may still sign in. */
  private async challenged(token: string, step: ChallengeClaims['step']): Promise<UserRow> {
    const claims = await verifyChallengeToken(this.jwtSecret, token);
    if (!claims || claims.step !== step) throw CHALLENGE_ENDED();
    const user = await findUserById(this.db, claims.userId);
    if (!user || user.disabled_at || !user.password_hash) throw CHALLENGE_ENDED();
    // A session opened since the password step (this token's, or another sign-in's) ends it.
    if (lastLoginMs(user) !== claims.since) throw CHALLENGE_ENDED();
    return user;
  }

  /** Counts a code attempt like a password ({@link Lockout}, kind `code`); the answer settles it. */
  private async throttleCode(user: UserRow, client: ClientInfo): Promise<{ succeeded(): Promise<void>; failed(): Promise<void> }> {
    const admission = await this.lockout.admit('code', user.email, client);
    return { succeeded: () => this.lockout.succeeded(admission), failed: () => this.lockout.failed(admission) };
  }

  /**
   * Checks a code of a signed-in account (turning two-factor off from the profile), throttled like
   * the sign-in's code step, so wrong codes cannot be tried without limit. Uses the code up.
   */
  async checkCode(user: UserRow, code: string, client: ClientInfo): Promise<'totp' | 'recovery' | null> {
    const attempt = await this.throttleCode(user, client);
    let kind: Awaited<ReturnType<TwoFactor['verify']>>;
    try {
      kind = await this.twoFactor.verify(this.db, user, code);
    } catch (error) {
      if (!(error instanceof TwoFactorKeyError)) throw error;
      await attempt.failed();
      throw codeKeyLost();
    }
    if (kind) await attempt.succeeded();
    else await attempt.failed();
    return kind;
  }

  /**
   * The second step of a sign-in: a TOTP code (±1 step, each step once) or an unused recovery code,
   * throttled like the password. Opens the session.
   */
  async completeTwoFactor(input: { challengeToken: string; code: string }, client: ClientInfo): Promise<LoginResponse> {
    const user = await this.challenged(input.challengeToken, 'verify');
    const attempt = await this.throttleCode(user, client);
    let kind: Awaited<ReturnType<TwoFactor['verify']>>;
    try {
      kind = await this.twoFactor.verify(this.db, user, input.code);
    } catch (error) {
      if (!(error instanceof TwoFactorKeyError)) throw error;
      await attempt.failed();
      this.log.warn({ userId: user.id }, "a two-factor code could not be checked: the account's TOTP secret was sealed with another data key");
      throw codeKeyLost();
    }
    if (!kind) {
      await attempt.failed();
      await writeAudit(this.db, { action: 'auth.2fa_failed', userId: user.id, ip: client.ip });
      throw invalidCode();
    }
    await attempt.succeeded();
    if (kind === 'recovery') await writeAudit(this.db, { action: 'auth.2fa_recovery_used', userId: user.id, ip: client.ip });
    return this.openSession(user, client, { twoFactor: kind }, user);
  }

  /** Enrolment during sign-in (REQUIRE_2FA_FOR_ADMINS): a new pending secret for the challenged admin. */
  async beginEnrolmentAtSignIn(challengeToken: string): Promise<TwoFactorEnrolment> {
    const user = await this.challenged(challengeToken, 'enrol');
    if (user.totp_enabled_at) throw conflict('Two-factor is already on for this account.');
    return this.twoFactor.begin(this.db, user);
  }

  /** Confirms enrolment during sign-in with one code; opens the session and gives the recovery codes once. */
  async confirmEnrolmentAtSignIn(input: { challengeToken: string; code: string }, client: ClientInfo): Promise<LoginResponse & { recoveryCodes: string[] }> {
    const user = await this.challenged(input.challengeToken, 'enrol');
    const attempt = await this.throttleCode(user, client);
    const codes = await this.twoFactor.confirm(this.db, user, input.code);
    if (!codes) {
      await attempt.failed();
      throw invalidCode();
    }
    await attempt.succeeded();
    await writeAudit(this.db, { action: 'auth.2fa_enabled', userId: user.id, ip: client.ip, details: { atSignIn: true } });
    return { ...(await this.openSession(user, client, { twoFactor: 'totp' }, user)), recoveryCodes: codes };
  }

  /** Opens a session that replaces the account's other sessions, and records the sign-in. */
  private async openSession(user: UserRow, client: ClientInfo, details: Record<string, unknown> = {}, challenged?: UserRow): Promise<LoginResponse> {
    const sid = newSessionId();
    const { updated, replaced } = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, user.id);
      // Two requests with one challenge token at once: the row lock orders them and the second
      // finds the sign-in the first recorded.
      if (challenged) {
        const now = await findUserById(trx, user.id);
        if (!now || lastLoginMs(now) !== lastLoginMs(challenged)) throw CHALLENGE_ENDED();
      }
      const replaced = await revokeUserSessions(trx, user.id, 'replaced');
      await createSession(trx, { id: sid, userId: user.id, userAgent: client.userAgent, ip: client.ip });
      const updated = await recordLogin(trx, user.id);
      await writeAudit(trx, { action: 'auth.login', userId: user.id, ip: client.ip, details: { sessionsReplaced: replaced.length, ...details } });
      return { updated, replaced };
    });
    this.cache.delete(...replaced);

    return {
      token: await this.accessTokenFor(updated, sid),
      expiresIn: ACCESS_TOKEN_TTL,
      refreshToken: makeRefreshToken(this.#refreshKey, sid, 0),
      data: toAuthUser(updated),
    };
  }

  /**
   * Rotates a refresh token. The current generation moves on; the previous one within the grace
   * window gets the current token back; anything older is reuse and ends the session.
   */
  async refresh(token: string, client: ClientInfo): Promise<RefreshResponse> {
    const parsed = parseRefreshToken(this.#refreshKey, token);
    if (!parsed) throw unauthenticated('Invalid refresh token.');
    const { sid, generation } = parsed;

    let state = await getSessionState(this.db, sid);
    if (!state) throw unauthenticated('Invalid refresh token.');
    if (!state.live) throw state.revokedReason === 'replaced' ? sessionReplaced() : unauthenticated(SESSION_ENDED);

    let current: number | undefined;
    if (generation === state.generation) {
      current = await rotateSession(this.db, sid, generation);
      // Lost a race with another rotation of the same token: judge it again as the previous one.
      if (current === undefined) state = await getSessionState(this.db, sid);
    }
    if (current === undefined && state && state.live && generation === state.generation - 1 && state.sinceRefresh <= REFRESH_GRACE_SECONDS) {
      current = state.generation;
    }
    if (current === undefined) {
      if (state?.live) {
        await this.revoke(sid, 'reuse');
        await writeAudit(this.db, {
          action: 'auth.refresh_reuse',
          userId: state.userId,
          ip: client.ip,
          details: { presented: generation, current: state.generation },
        });
        this.log.warn({ userId: state.userId }, 'refresh token reuse: session revoked');
      }
      throw unauthenticated('Refresh token already used; the session has been ended.');
    }

    const user = await findUserById(this.db, state!.userId);
    if (!user || user.disabled_at) throw unauthenticated(SESSION_ENDED);
    return {
      accessToken: await this.accessTokenFor(user, sid),
      expiresIn: ACCESS_TOKEN_TTL,
      refreshToken: makeRefreshToken(this.#refreshKey, sid, current),
    };
  }

  /**
   * The guard's check: a valid access token whose session is live. Throws 401 `UNAUTHENTICATED` /
   * `SESSION_REPLACED`; the role is the route's to judge (`plugins/auth.ts`).
   */
  async authenticate(token: string | undefined): Promise<AuthContext> {
    if (!token) throw unauthenticated();
    let claims = this.tokens.get(token);
    if (!claims) {
      claims = (await verifyAccessToken(this.jwtSecret, token)) ?? undefined;
      if (!claims) throw unauthenticated('The access token is invalid or has expired.');
      this.tokens.set(token, claims);
    }

    let session = this.cache.get(claims.sid);
    if (!session) {
      const state = await getSessionState(this.db, claims.sid);
      session = state ? { live: state.live, revokedReason: state.revokedReason, userId: state.userId } : { live: false, revokedReason: null, userId: 0 };
      this.cache.set(claims.sid, session);
    }
    if (!session.live || session.userId !== claims.userId) {
      throw session.revokedReason === 'replaced' ? sessionReplaced() : unauthenticated(SESSION_ENDED);
    }
    return { id: claims.userId, email: claims.email, name: claims.name, role: claims.role, sid: claims.sid };
  }

  /** Verifies an access token without the session check (sign-out of a token that may be stale). */
  verifyAccessToken(token: string) {
    return verifyAccessToken(this.jwtSecret, token);
  }

  /** The session a refresh token names, when its MAC is right (sign-out by refresh token). */
  sessionOfRefreshToken(token: string): string | null {
    return parseRefreshToken(this.#refreshKey, token)?.sid ?? null;
  }

  /** Signs out: ends the session and records it. */
  async logout(sid: string, client: ClientInfo): Promise<void> {
    const state = await getSessionState(this.db, sid);
    if (!state || !(await this.revoke(sid, 'logout'))) return;
    await writeAudit(this.db, { action: 'auth.logout', userId: state.userId, ip: client.ip });
  }

  /** Ends one session. */
  async revoke(sid: string, reason: RevokeReason): Promise<boolean> {
    const revoked = await revokeSession(this.db, sid, reason);
    this.cache.delete(sid);
    return revoked;
  }

  /** Ends every session of an admin, except `keepSid` when given. */
  async revokeAll(userId: number, reason: RevokeReason, keepSid?: string, db: Kysely<SystemTables> = this.db): Promise<void> {
    const ids = await revokeUserSessions(db, userId, reason, keepSid);
    this.cache.delete(...ids);
  }

  /** Signs an access token for an admin's session, with the claims the guard reads. */
  accessTokenFor(user: UserRow, sid: string): Promise<string> {
    return signAccessToken(this.jwtSecret, { userId: user.id, sid, email: user.email, name: user.name, role: user.role });
  }
}
