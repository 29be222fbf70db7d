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
  | 'auth.first_admin';

/** The results events (DESIGN §12) written to `audit_log`, against the exam. */
export type ResultsAuditAction = 'results.shortlist' | 'results.award_override' | 'results.finalise' | 'results.reopen';

/** Appends one audit row; `details` must never hold a password or a token. */
export async function writeAudit(
  db: Kysely<SystemTables>,
  entry: {
    action: AuthAuditAction | ResultsAuditAction;
    userId?: number | null;
    ip?: string | null;
    details?: Record<string, unknown>;
    /** The record written, when it is not the user's own account. */
    entity?: string;
    entityId?: string | number;
  },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      action: entry.action,
      user_id: entry.userId ?? null,
      entity: entry.entity ?? 'user',
      entity_id: entry.entity ? String(entry.entityId ?? '') : entry.userId ? String(entry.userId) : null,
      details: entry.details ? JSON.stringify(entry.details) : null,
      ip: entry.ip ?? null,
    })
    .execute();
}
