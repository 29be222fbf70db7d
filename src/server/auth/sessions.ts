import { type Kysely, sql } from 'kysely';
import type { SystemTables } from '../db/system-tables.js';

type Db = Kysely<SystemTables>;

/** Session lifetimes: idle since the last refresh, and absolute since sign-in. */
export const SESSION_IDLE_SECONDS = 2 * 60 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;
/** How long the previous refresh token stays usable after a rotation (two tabs refreshing at once). */
export const REFRESH_GRACE_SECONDS = 10;

/** Why a session ended. `replaced` is the one the client words differently ('signed in elsewhere'). */
export type RevokeReason = 'logout' | 'replaced' | 'reuse' | 'password_changed' | 'password_reset' | 'disabled' | 'role_changed';

/** A session as the guard and the refresh flow see it; times are judged by the database clock. */
export interface SessionState {
  id: string;
  userId: number;
  generation: number;
  revokedReason: string | null;
  /** Not revoked and inside both expiries. */
  live: boolean;
  /** Seconds since the last rotation. */
  sinceRefresh: number;
}

/** Creates a session for a sign-in, generation 0. */
export async function createSession(db: Db, values: { id: string; userId: number; userAgent: string | null; ip: string | null }): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: values.id,
      user_id: values.userId,
      refresh_generation: 0,
      refreshed_at: sql`now()`,
      idle_expires_at: sql`now() + make_interval(secs => ${SESSION_IDLE_SECONDS})`,
      absolute_expires_at: sql`now() + make_interval(secs => ${SESSION_ABSOLUTE_SECONDS})`,
      user_agent: values.userAgent?.slice(0, 500) ?? null,
      ip: values.ip,
    })
    .execute();
}

/** Reads a session's state; undefined when there is no such session. */
export async function getSessionState(db: Db, id: string): Promise<SessionState | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.user_id',
      'sessions.refresh_generation',
      'sessions.revoked_reason',
      sql<boolean>`sessions.revoked_at is null and users.disabled_at is null
        and sessions.idle_expires_at > now() and sessions.absolute_expires_at > now()`.as('live'),
      sql<number>`extract(epoch from now() - sessions.refreshed_at)::float8`.as('since_refresh'),
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    generation: row.refresh_generation,
    revokedReason: row.revoked_reason,
    live: Boolean(row.live),
    sinceRefresh: Number(row.since_refresh),
  };
}

/**
 * Rotates the refresh token: moves a live session from `generation` to the next one, atomically.
 * Returns the new generation, or undefined when another request rotated it first (or it is not live).
 */
export async function rotateSession(db: Db, id: string, generation: number): Promise<number | undefined> {
  const row = await db
    .updateTable('sessions')
    .set({
      refresh_generation: generation + 1,
      refreshed_at: sql`now()`,
      idle_expires_at: sql`least(now() + make_interval(secs => ${SESSION_IDLE_SECONDS}), absolute_expires_at)`,
    })
    .where('id', '=', id)
    .where('refresh_generation', '=', generation)
    .where('revoked_at', 'is', null)
    .where(sql<boolean>`idle_expires_at > now() and absolute_expires_at > now()`)
    .returning('refresh_generation')
    .executeTakeFirst();
  return row?.refresh_generation;
}

/** Revokes one session (if still live); returns whether it was. */
export async function revokeSession(db: Db, id: string, reason: RevokeReason): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()`, revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every live session of an admin except `keepId`; returns the ids revoked. */
export async function revokeUserSessions(db: Db, userId: number, reason: RevokeReason, keepId?: string): Promise<string[]> {
  let query = db.updateTable('sessions').set({ revoked_at: sql`now()`, revoked_reason: reason }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepId) query = query.where('id', '!=', keepId);
  const rows = await query.returning('id').execute();
  return rows.map((row) => row.id);
}

/**
 * Deletes sessions that ended more than 90 days ago, so the table does not grow without bound while
 * the accounts screen can still show each account's recent sign-ins.
 */
export async function purgeOldSessions(db: Db): Promise<void> {
  await db.deleteFrom('sessions').where(sql<boolean>`coalesce(revoked_at, least(idle_expires_at, absolute_expires_at)) < now() - interval '90 days'`).execute();
}
