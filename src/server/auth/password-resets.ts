import { createHash, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { SystemTables } from '../db/system-tables.js';

type Db = Kysely<SystemTables>;

/** How long a reset link works. */
export const RESET_TOKEN_TTL_SECONDS = 60 * 60;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Issues a reset token for an admin (32 random bytes); only its SHA-256 is stored. */
export async function createResetToken(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('password_resets')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      expires_at: sql`now() + make_interval(secs => ${RESET_TOKEN_TTL_SECONDS})`,
    })
    .execute();
  return token;
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
  await db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', row.user_id)
    .where('used_at', 'is', null)
    .execute();
  return row.user_id;
}

/** Deletes reset tokens that expired more than a day ago. */
export async function purgeExpiredResets(db: Db): Promise<void> {
  await db.deleteFrom('password_resets').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
}
