import type { Kysely } from 'kysely';
import type { HookAuditEntry } from '../../shared/extension/server-hooks.js';
import type { SystemTables } from '../db/system-tables.js';
import { type AuditChanges, appendAudit } from '../history/audit-chain.js';
import { diffRecords, withoutSecrets } from '../history/changes.js';

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

/** Data in and out (imports, exports, bulk actions), written with the entity they touched. */
export type DataAuditAction = 'data.export' | 'data.import' | 'data.bulk_delete' | 'data.bulk_update';

/** What one audit row records; only `action` is required (the fields a hook may give, and more). */
export interface AuditEntry extends Omit<HookAuditEntry, 'action'> {
  /** An auth event, or any other action (`create`, a feature's `<feature>.<event>`, ...). */
  action: AuthAuditAction | (string & {});
  ip?: string | null;
  /** Changed fields given directly (instead of before / after); secret fields are dropped. */
  changes?: AuditChanges;
}

/**
 * Appends one audit row to the hash chain. Pass the write's transaction as `db` (or as
 * `executor`) so the row commits and rolls back with the change; with a plain connection the row is
 * written in a transaction of its own. `details` must never hold a password or a token.
 * See docs/architecture.md, "The audit chain".
 *
 * @example await writeAudit(trx, { action: 'accounts.disable', userId: by.id, ip, entity: 'user', entityId: id, before, after })
 */
export async function writeAudit(db: Kysely<SystemTables> | Kysely<any>, entry: AuditEntry, executor?: Kysely<any>): Promise<void> {
  const hasEntity = entry.entity !== undefined;
  const entityId = hasEntity ? entry.entityId : entry.userId;
  let changes: AuditChanges | null = null;
  if (entry.changes)
    changes = diffRecords(
      Object.fromEntries(Object.entries(entry.changes).map(([k, c]) => [k, c.before])),
      Object.fromEntries(Object.entries(entry.changes).map(([k, c]) => [k, c.after])),
    );
  else if (entry.before !== undefined || entry.after !== undefined) changes = diffRecords(entry.before ?? null, entry.after ?? null);
  await appendAudit((executor ?? db) as Kysely<any>, {
    action: entry.action,
    userId: entry.userId ?? null,
    ip: entry.ip ?? null,
    entity: hasEntity ? (entry.entity ?? null) : 'user',
    entityId: entityId === undefined || entityId === null || entityId === 0 ? null : String(entityId),
    details: withoutSecrets(entry.details),
    changes,
  });
}
