import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuthUser } from '../../shared/api-contract.js';
import { ADMIN_ROLE, roleLinks } from '../../shared/roles.js';
import type { SystemTables, UserPreferences, UsersTable } from '../db/system-tables.js';

type Db = Kysely<SystemTables>;
/** A users row as read. */
export type UserRow = Selectable<UsersTable>;

/** Default preferences of a new admin (spec: theme light, language en, notifications on). */
export const DEFAULT_PREFERENCES: UserPreferences = { theme: 'light', language: 'en', notifications: true };

/**
 * The record ids an account is linked to, by column (`{ <column>: id | null }`), one entry per link
 * a role declares (`src/shared/roles.ts`): the declared columns are not in {@link UsersTable}'s type.
 */
export function linkColumnsOf(user: UserRow): Record<string, number | null> {
  const row = user as unknown as Record<string, unknown>;
  return Object.fromEntries(roleLinks().map((link) => [link.column, (row[link.column] as number | null | undefined) ?? null]));
}

/**
 * The API's view of an account: never the password hash. `lastLoginTimestamp` is the sign-in before
 * this one. Every declared role link adds its `userField` (the linked record's id, or null).
 */
export function toAuthUser(user: UserRow): AuthUser {
  const preferences = { ...DEFAULT_PREFERENCES, ...(user.preferences ?? {}) };
  const links = linkColumnsOf(user);
  return {
    id: String(user.id),
    name: user.name,
    email: user.email,
    role: user.role,
    ...Object.fromEntries(roleLinks().map((link) => [link.userField, links[link.column] ?? null])),
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
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A new account's values; `links` holds its declared link columns' values (`{ <column>: id }`), checked by the caller. */
export interface NewUser {
  email: string;
  name: string;
  passwordHash: string | null;
  /** `admin` when absent. */
  role?: string;
  links?: Readonly<Record<string, number | null>>;
}

/** The values of declared link columns to write; any other name is an error (a column name never comes from a request). */
export function linkValues(links: Readonly<Record<string, number | null>> = {}): Record<string, number | null> {
  const declared = new Set(roleLinks().map((link) => link.column));
  for (const column of Object.keys(links)) if (!declared.has(column)) throw new Error(`users.${column} is no declared role link.`);
  return { ...links };
}

/** Inserts an account (an admin unless `role` says otherwise) unless the e-mail is taken; returns the new row, or undefined on a clash. */
export function insertUser(db: Db, values: NewUser): Promise<UserRow | undefined> {
  return db
    .insertInto('users')
    .values({
      email: normalizeEmail(values.email),
      name: values.name,
      password_hash: values.passwordHash,
      role: values.role ?? ADMIN_ROLE,
      avatar_url: null,
      preferences: JSON.stringify(DEFAULT_PREFERENCES),
      ...linkValues(values.links),
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
        ...(changes.preferences !== undefined ? { preferences: sql<string>`preferences || ${JSON.stringify(changes.preferences)}::jsonb` } : {}),
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
