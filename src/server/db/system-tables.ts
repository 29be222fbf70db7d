import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** Timestamps come back as Date and may be written as Date or ISO text. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UserPreferences {
  theme: 'light' | 'dark';
  language: 'en' | 'id' | 'ms';
  notifications: boolean;
}

/**
 * The accounts. A role declared with a `link` (`src/shared/roles.ts`) adds a column of its own,
 * through its feature's migration; such columns are not typed here: `users.ts` reads and writes
 * them by the declarations.
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  /** Null for an invited account that has not set its password yet. */
  password_hash: string | null;
  role: Generated<string>;
  avatar_url: string | null;
  preferences: JSONColumnType<UserPreferences, string, string>;
  last_login_at: Timestamp | null;
  previous_login_at: Timestamp | null;
  disabled_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  /** When the account was invited; null once it set its password (or when never invited). */
  invited_at: Timestamp | null;
  invited_by: number | null;
  /** The TOTP secret, encrypted (`totp.ts`); set while enrolling, kept while two-factor is on. */
  totp_secret: string | null;
  /** When two-factor was turned on; null while off or still enrolling. */
  totp_enabled_at: Timestamp | null;
  /** The last TOTP time step accepted: a code of that step or an older one is refused. */
  totp_last_step: ColumnType<string | null, number | string | null, number | string | null>;
}

/** One row per sign-in; the refresh-token family is the session itself. */
export interface SessionsTable {
  id: string;
  user_id: number;
  refresh_generation: Generated<number>;
  refreshed_at: Timestamp;
  idle_expires_at: Timestamp;
  absolute_expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: Generated<Timestamp>;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  /** `reset` (forgot password, 1 h) or `invite` (set the first password, 72 h). */
  purpose: Generated<'reset' | 'invite'>;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

/** Fixed-window counters for sign-in and reset throttling, shared by every server on one database. */
export interface ThrottlesTable {
  key: string;
  hits: number;
  reset_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  user_id: number | null;
  action: string;
  entity: string | null;
  entity_id: string | null;
  details: JSONColumnType<Record<string, unknown>, string, string> | null;
  ip: string | null;
  created_at: Generated<Timestamp>;
  /** Changed fields `{field: {before, after}}` (migration 006). */
  changes: JSONColumnType<Record<string, { before: unknown; after: unknown }>, string, string> | null;
  /** Hash of the previous row and this row's hash (the tamper-evident chain, migration 006). */
  prev_hash: string | null;
  hash: string | null;
}

/** The chain's head: one row whose lock serialises audit appends. */
export interface AuditChainTable {
  id: number;
  last_id: number;
  last_hash: string;
}

/** Deleted records kept 30 days for restore: the stored row and the links a delete emptied. */
export interface TrashTable {
  id: Generated<number>;
  entity: string;
  record_id: number;
  title: string | null;
  record: JSONColumnType<Record<string, unknown>, string, string>;
  detached: JSONColumnType<Array<{ entity: string; field: string; ids: number[] }>, string, string>;
  deleted_by: number | null;
  deleted_at: Generated<Timestamp>;
}

/** Two-factor recovery codes: SHA-256 of each, single use. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface SystemTables {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  throttles: ThrottlesTable;
  audit_log: AuditLogTable;
  audit_chain: AuditChainTable;
  trash: TrashTable;
  settings: SettingsTable;
  recovery_codes: RecoveryCodesTable;
}
