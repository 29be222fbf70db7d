import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuthUser } from '../../shared/api-contract.js';
import type { SystemTables, UserPreferences, UsersTable } from '../db/system-tables.js';

type Db = Kysely<SystemTables>;
/** A users row as read. */
export type UserRow = Selectable<UsersTable>;

/** Default preferences of a new admin (spec: theme light, language en, notifications on). */
export const DEFAULT_PREFERENCES: UserPreferences = { theme: 'light', language: 'en', notifications: true };

/** The API's view of an admin: never the password hash. `lastLoginTimestamp` is the sign-in before this one. */
export function toAuthUser(user: UserRow): AuthUser {
  const preferences = { ...DEFAULT_PREFERENCES, ...(user.preferences ?? {}) };
  return {
    id: String(user.id),
    name: user.name,
    email: user.email,
    role: user.role,
    juryId: user.jury_id ?? null,
    twoFactor: Boolean(user.totp_enabled_at),
    avatarUrl: user.avatar_url,
    lastLoginTimestamp: user.previous_login_at ? new Date(user.previous_login_at).toISOString() : null,
    preferences,
  };
}

/** Trims and lower-cases an e-mail address, the one form it is stored and looked up in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts an account (an admin unless `role` says otherwise) unless the e-mail is taken; returns the new row, or undefined on a clash. */
export function insertUser(
  db: Db,
  values: { email: string; name: string; passwordHash: string | null; role?: string; juryId?: number | null },
): Promise<UserRow | undefined> {
  return db
    .insertInto('users')
    .values({
      email: normalizeEmail(values.email),
      name: values.name,
      password_hash: values.passwordHash,
      role: values.role ?? 'admin',
      jury_id: values.juryId ?? null,
      avatar_url: null,
      preferences: JSON.stringify(DEFAULT_PREFERENCES),
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Records a sign-in: the previous time moves to `previous_login_at`. Returns the updated row. */
export function recordLogin(db: Db, id: number): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ previous_login_at: sql`last_login_at`, last_login_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setPasswordHash(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: sql`now()` }).where('id', '=', id).execute();
}

/** The fields an admin may change on their own profile. */
export interface ProfileChanges {
  name?: string;
  email?: string;
  avatarUrl?: string | null;
  preferences?: Partial<UserPreferences>;
}

/** Applies profile changes; preferences merge into the stored ones. Undefined when the e-mail is taken. */
export async function updateProfile(db: Db, id: number, changes: ProfileChanges): Promise<UserRow | undefined> {
  try {
    return await db
      .updateTable('users')
      .set({
        updated_at: sql`now()`,
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.email !== undefined ? { email: normalizeEmail(changes.email) } : {}),
        ...(changes.avatarUrl !== undefined ? { avatar_url: changes.avatarUrl } : {}),
        ...(changes.preferences !== undefined
          ? { preferences: sql`preferences || ${JSON.stringify(changes.preferences)}::jsonb` as any }
          : {}),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return undefined;
    throw error;
  }
}

/** Locks an admin's row until the transaction ends, so concurrent sign-ins of one admin serialise. */
export async function lockUser(db: Db, id: number): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute();
}
