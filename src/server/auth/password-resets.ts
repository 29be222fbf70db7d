import { createHash, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { SystemTables } from '../db/system-tables.js';

type Db = Kysely<SystemTables>;

/** How long a reset link works. */
export const RESET_TOKEN_TTL_SECONDS = 60 * 60;
/** How long an invitation's set-password link works. */
export const INVITE_TOKEN_TTL_SECONDS = 72 * 60 * 60;

/** Why a link was issued: a forgotten password, or an invitation to set the first one. */
export type ResetPurpose = 'reset' | 'invite';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Issues a single-use set-password token for an account (32 random bytes); only its SHA-256 is
 * stored. A reset link works an hour, an invitation's 72 hours.
 */
export async function createResetToken(db: Db, userId: number, purpose: ResetPurpose = 'reset'): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const ttl = purpose === 'invite' ? INVITE_TOKEN_TTL_SECONDS : RESET_TOKEN_TTL_SECONDS;
  await db
    .insertInto('password_resets')
    .values({
      user_id: userId,
      purpose,
      token_hash: hashToken(token),
      expires_at: sql`now() + make_interval(secs => ${ttl})`,
    })
    .execute();
  return token;
}

/** The account a token would set the password of, when it is unused and unexpired (nothing is used up). */
export async function peekResetToken(db: Db, token: string): Promise<{ userId: number; purpose: ResetPurpose } | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .select(['user_id', 'purpose'])
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ? { userId: row.user_id, purpose: row.purpose } : undefined;
}

/** Uses up every outstanding token of an account (a new invitation replaces the old link). */
export async function revokeResetTokens(db: Db, userId: number): Promise<void> {
  await db.updateTable('password_resets').set({ used_at: sql`now()` }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/**
 * Uses a reset token: marks it used if it is unused and unexpired and returns its admin's id;
 * undefined otherwise. The admin's other outstanding tokens are used up too.
 */
export async function consumeResetToken(db: Db, token: string): Promise<number | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  if (!row) return undefined;
  await db.updateTable('password_resets').set({ used_at: sql`now()` }).where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
  return row.user_id;
}

/** Deletes reset tokens that expired more than a day ago. */
export async function purgeExpiredResets(db: Db): Promise<void> {
  await db.deleteFrom('password_resets').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
}
