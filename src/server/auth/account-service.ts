import type { FastifyBaseLogger } from 'fastify';
import type { AuthUser } from '../../shared/api-contract.js';
import { passwordPolicyProblem } from '../../shared/password-policy.js';
import type { AppConfig } from '../config.js';
import type { UserPreferences } from '../db/system-tables.js';
import { badRequest, conflict, rateLimited, unauthenticated, validationFailed } from '../errors.js';
import { writeAudit } from './audit.js';
import type { AuthContext, AuthService, ClientInfo } from './auth-service.js';
import { recipientLanguage } from './mail-language.js';
import type { Mailer } from './mailer.js';
import { hashPassword, verifyPassword } from './password.js';
import { consumeResetToken, createResetToken, peekResetToken, RESET_TOKEN_TTL_SECONDS } from './password-resets.js';
import { clientAddressKey, hitThrottle, THROTTLE_RULES } from './throttle.js';
import { findUserByEmail, findUserById, normalizeEmail, setPasswordHash, toAuthUser, type UserRow, updateProfile } from './users.js';

/** PUT /api/auth/me body, after schema validation. */
export interface ProfileInput {
  name?: string;
  email?: string;
  avatarUrl?: string | null;
  preferences?: Partial<UserPreferences>;
  currentPassword?: string;
}

/** Throws 422 with the field's translated reason when a new password breaks the policy. */
export async function assertPasswordPolicy(password: string, email: string, path: string): Promise<void> {
  const problem = await passwordPolicyProblem(password, email);
  if (problem) throw validationFailed([{ path, keyword: problem.keyword, messageKey: problem.messageKey, params: problem.params }]);
}

export const emailTaken = () =>
  conflict('Another admin already has this e-mail address.', [{ path: 'email', keyword: 'unique', messageKey: 'validation.email.unique', params: {} }]);

const wrongCurrentPassword = () =>
  validationFailed([{ path: 'currentPassword', keyword: 'currentPassword', messageKey: 'validation.currentPassword.invalid', params: {} }]);

/**
 * The signed-in account's own profile and password, and the password flows around sign-in (forgot /
 * reset password, an invitation's first password). Routes call these; they hold no HTTP. Creating
 * and administering other accounts is a feature's (accounts).
 */
export class AccountService {
  constructor(
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
    private readonly config: Pick<AppConfig, 'publicUrl'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.auth.db;
  }

  /** The signed-in admin's profile; 401 when the account no longer exists. */
  async me(user: AuthContext): Promise<AuthUser> {
    const row = await findUserById(this.db, user.id);
    if (!row || row.disabled_at) throw unauthenticated();
    return toAuthUser(row);
  }

  /** Updates name, avatar, preferences and (with the current password) the e-mail address. */
  async updateMe(user: AuthContext, input: ProfileInput, client: ClientInfo): Promise<AuthUser> {
    const row = await findUserById(this.db, user.id);
    if (!row) throw unauthenticated();
    const email = input.email === undefined ? undefined : normalizeEmail(input.email);
    const emailChanges = email !== undefined && email !== row.email;
    if (emailChanges) {
      if (!input.currentPassword) {
        throw validationFailed([
          { path: 'currentPassword', keyword: 'required', messageKey: 'validation.currentPassword.required', params: { missingProperty: 'currentPassword' } },
        ]);
      }
      if (!(await this.checkPassword(row.id, row.email, row.password_hash, input.currentPassword, client))) throw wrongCurrentPassword();
    }
    const updated = await updateProfile(this.db, user.id, {
      name: input.name?.trim(),
      email: emailChanges ? email : undefined,
      avatarUrl: input.avatarUrl === undefined ? undefined : input.avatarUrl?.trim() || null,
      preferences: input.preferences,
    });
    if (!updated) throw emailTaken();
    await writeAudit(this.db, {
      action: 'auth.profile_update',
      userId: user.id,
      ip: client.ip,
      details: { fields: Object.keys(input).filter((key) => key !== 'currentPassword'), emailChanged: emailChanges },
    });
    return toAuthUser(updated);
  }

  /** Changes the password after checking the current one; ends the admin's other sessions. */
  async changePassword(user: AuthContext, input: { currentPassword: string; newPassword: string }, client: ClientInfo): Promise<void> {
    const row = await findUserById(this.db, user.id);
    if (!row) throw unauthenticated();
    if (!(await this.checkPassword(row.id, row.email, row.password_hash, input.currentPassword, client))) throw wrongCurrentPassword();
    await assertPasswordPolicy(input.newPassword, row.email, 'newPassword');
    await setPasswordHash(this.db, user.id, await hashPassword(input.newPassword));
    await this.auth.revokeAll(user.id, 'password_changed', user.sid);
    await writeAudit(this.db, { action: 'auth.password_change', userId: user.id, ip: client.ip });
  }

  /**
   * Starts a password reset. Always succeeds from the caller's view (no account enumeration);
   * when the account exists a single-use link valid for an hour is mailed (or logged).
   */
  async forgotPassword(input: { email: string }, client: ClientInfo): Promise<void> {
    const email = normalizeEmail(input.email);
    await this.auth.lockout.admit('forgot', email, client);
    const user = await findUserByEmail(this.db, email);
    if (!user || user.disabled_at) return;
    // Not awaited: issuing and mailing the link must not make "account exists" answer slower than
    // "unknown account", or the timing would tell which addresses have accounts.
    this.sendResetLink(user, client).catch((error: Error) =>
      this.log.error({ err: { message: error.message }, userId: user.id }, 'password reset mail failed'),
    );
  }

  /** The link's token, its audit entry and its mail (in the account's language) in one transaction. */
  private async sendResetLink(user: UserRow, client: ClientInfo): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const token = await createResetToken(trx, user.id);
      await writeAudit(trx, { action: 'auth.password_reset_requested', userId: user.id, ip: client.ip });
      const link = `${this.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await this.mailer.send(
        {
          to: user.email,
          userId: user.id,
          language: await recipientLanguage(trx, user),
          template: 'passwordReset',
          vars: { name: user.name, minutes: RESET_TOKEN_TTL_SECONDS / 60 },
          link,
        },
        { db: trx },
      );
    });
  }

  /** Sets a new password with a reset token; the token works once, and every session ends. */
  async resetPassword(input: { token: string; password: string }, client: ClientInfo): Promise<void> {
    const address = await hitThrottle(this.db, `reset:address:${clientAddressKey(client.ip)}`, THROTTLE_RULES.resetPerAddress);
    if (address.exceeded) throw rateLimited(address.retryAfter);
    const linkEnded = () => badRequest('This password reset link is invalid or has expired.');
    const pending = await peekResetToken(this.db, input.token);
    const owner = pending && (await findUserById(this.db, pending.userId));
    if (!pending || !owner) throw linkEnded();
    // The policy is checked before the link is used up, so a refused password leaves it working.
    await assertPasswordPolicy(input.password, owner.email, 'password');
    const userId = await consumeResetToken(this.db, input.token);
    if (userId === undefined) throw linkEnded();
    await setPasswordHash(this.db, userId, await hashPassword(input.password));
    await this.db.updateTable('users').set({ invited_at: null }).where('id', '=', userId).execute();
    await this.auth.revokeAll(userId, 'password_reset');
    await writeAudit(this.db, { action: pending.purpose === 'invite' ? 'accounts.invite_accepted' : 'auth.password_reset', userId, ip: client.ip });
  }

  /** Checks a password of a signed-in admin, counting failures against the account's sign-in limit. */
  async checkPassword(userId: number, email: string, hash: string | null, password: string, client: ClientInfo): Promise<boolean> {
    const admission = await this.auth.lockout.admit('login', email, client);
    const ok = await verifyPassword(password, hash);
    if (ok) await this.auth.lockout.succeeded(admission);
    else await this.auth.lockout.failed(admission);
    if (!ok) await writeAudit(this.db, { action: 'auth.login_failed', userId, ip: client.ip, details: { email, reason: 'current password' } });
    return ok;
  }
}
