import {
  type AccountService,
  type AuthContext,
  type AuthService,
  type ClientInfo,
  conflict,
  findUserById,
  invalidCode,
  unauthenticated,
  validationFailed,
  writeAudit,
} from '../../../server/index.js';
import type { TwoFactorEnrolment } from '../../../shared/api-contract.js';

/**
 * Two-factor from the signed-in account's profile: its state, enrolment (QR code and secret, then
 * one code turns it on and gives ten recovery codes, shown once) and turning it off with the
 * password and a code. Every change is audited.
 */
export class ProfileTwoFactor {
  constructor(
    private readonly auth: AuthService,
    private readonly accounts: AccountService,
  ) {}

  private get db() {
    return this.auth.db;
  }

  private async row(user: AuthContext) {
    const row = await findUserById(this.db, user.id);
    if (!row || row.disabled_at) throw unauthenticated();
    return row;
  }

  async status(user: AuthContext): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const row = await this.row(user);
    const enabled = Boolean(row.totp_enabled_at);
    return { enabled, recoveryCodesLeft: enabled ? await this.auth.twoFactor.remainingRecoveryCodes(this.db, row.id) : 0 };
  }

  async begin(user: AuthContext): Promise<TwoFactorEnrolment> {
    const row = await this.row(user);
    if (row.totp_enabled_at) throw conflict('Two-factor is already on for this account.');
    return this.auth.twoFactor.begin(this.db, row);
  }

  async confirm(user: AuthContext, code: string, client: ClientInfo): Promise<{ recoveryCodes: string[] }> {
    const row = await this.row(user);
    if (row.totp_enabled_at) throw conflict('Two-factor is already on for this account.');
    const codes = await this.auth.twoFactor.confirm(this.db, row, code);
    if (!codes) throw invalidCode();
    await writeAudit(this.db, { action: 'auth.2fa_enabled', userId: row.id, ip: client.ip });
    return { recoveryCodes: codes };
  }

  async disable(user: AuthContext, input: { password: string; code: string }, client: ClientInfo): Promise<void> {
    const row = await this.row(user);
    if (!row.totp_enabled_at) throw conflict('Two-factor is not on for this account.');
    if (!(await this.accounts.checkPassword(row.id, row.email, row.password_hash, input.password, client))) {
      throw validationFailed([{ path: 'password', keyword: 'currentPassword', messageKey: 'validation.currentPassword.invalid', params: {} }]);
    }
    // Throttled like the sign-in's code step (a wrong code counts against the account).
    if (!(await this.auth.checkCode(row, input.code, client))) throw invalidCode();
    await this.auth.twoFactor.disable(this.db, row.id);
    await writeAudit(this.db, { action: 'auth.2fa_disabled', userId: row.id, ip: client.ip });
  }
}
