import type { Kysely } from 'kysely';
import type { SystemTables } from '../db/system-tables.js';

/** The auth events written to `audit_log`. */
export type AuthAuditAction =
  | 'auth.login'
  | 'auth.login_failed'
  | 'auth.logout'
  | 'auth.refresh_reuse'
  | 'auth.password_change'
  | 'auth.password_reset_requested'
  | 'auth.password_reset'
  | 'auth.register'
  | 'auth.profile_update'
  | 'auth.first_admin'
  | 'auth.2fa_failed'
  | 'auth.2fa_recovery_used'
  | 'auth.2fa_enabled'
  | 'auth.2fa_disabled'
  | 'accounts.invite'
  | 'accounts.invite_resent'
  | 'accounts.invite_accepted'
  | 'accounts.update'
  | 'accounts.disable'
  | 'accounts.enable';

/** Appends one audit row; `details` must never hold a password or a token. */
export async function writeAudit(
  db: Kysely<SystemTables>,
  entry: { action: AuthAuditAction; userId?: number | null; ip?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      action: entry.action,
      user_id: entry.userId ?? null,
      entity: 'user',
      entity_id: entry.userId ? String(entry.userId) : null,
      details: entry.details ? JSON.stringify(entry.details) : null,
      ip: entry.ip ?? null,
    })
    .execute();
}
