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

/** Data in and out (imports, exports, bulk actions), written with the entity they touched. */
export type DataAuditAction = 'data.export' | 'data.import' | 'data.bulk_delete' | 'data.bulk_update';

/** Appends one audit row; `details` must never hold a password or a token. */
export async function writeAudit(
  db: Kysely<SystemTables>,
  entry: {
    action: AuthAuditAction | DataAuditAction;
    userId?: number | null;
    ip?: string | null;
    details?: Record<string, unknown>;
    /** The entity touched (default `user`, the account itself) and, when one record, its id. */
    entity?: string;
    entityId?: string | null;
  },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      action: entry.action,
      user_id: entry.userId ?? null,
      entity: entry.entity ?? 'user',
      entity_id: entry.entity ? (entry.entityId ?? null) : entry.userId ? String(entry.userId) : null,
      details: entry.details ? JSON.stringify(entry.details) : null,
      ip: entry.ip ?? null,
    })
    .execute();
}
