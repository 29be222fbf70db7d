import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** Timestamps come back as Date and may be written as Date or ISO text. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UserPreferences {
  theme: 'light' | 'dark';
  language: 'en' | 'id' | 'ms';
  notifications: boolean;
}

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
  /** A juror's jury record (the `jury` entity); null for admins. */
  jury_id: number | null;
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
  settings: SettingsTable;
  recovery_codes: RecoveryCodesTable;
}
