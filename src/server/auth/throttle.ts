import { type Kysely, sql } from 'kysely';
import type { SystemTables } from '../db/system-tables.js';

type Db = Kysely<SystemTables>;

/** A fixed-window limit: at most `limit` hits per `windowSeconds`. */
export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

/** The limits the auth routes use. */
export const THROTTLE_RULES = {
  loginPerAccount: { limit: 5, windowSeconds: 15 * 60 },
  loginPerAddress: { limit: 30, windowSeconds: 15 * 60 },
  forgotPerAccount: { limit: 3, windowSeconds: 60 * 60 },
  forgotPerAddress: { limit: 10, windowSeconds: 15 * 60 },
  resetPerAddress: { limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>;

/**
 * The part of a client address that names one client for throttling: an IPv4 address as it is
 * (IPv4-mapped IPv6 unwrapped), an IPv6 address by its /64 prefix, since one host usually holds a
 * whole /64 and could otherwise rotate through it.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The result of counting one hit. */
export interface ThrottleHit {
  hits: number;
  /** Seconds until the window resets. */
  retryAfter: number;
  /** Whether this hit went over the limit. */
  exceeded: boolean;
}

/**
 * Counts one hit on `key` in the shared `throttles` table (one atomic upsert, so every server on
 * the database sees the same count) and says whether it exceeded the rule.
 */
export async function hitThrottle(db: Db, key: string, rule: ThrottleRule): Promise<ThrottleHit> {
  const { rows } = await sql<{ hits: number; retry_after: number }>`
    insert into throttles (key, hits, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    on conflict (key) do update set
      hits = case when throttles.reset_at <= now() then 1 else throttles.hits + 1 end,
      reset_at = case when throttles.reset_at <= now() then excluded.reset_at else throttles.reset_at end
    returning hits, extract(epoch from reset_at - now())::float8 as retry_after`.execute(db);
  const row = rows[0]!;
  return { hits: row.hits, retryAfter: Math.max(1, Math.ceil(Number(row.retry_after))), exceeded: row.hits > rule.limit };
}

/** Takes one hit back (a sign-in that succeeded should not count against its address). */
export async function unhitThrottle(db: Db, key: string): Promise<void> {
  await db.updateTable('throttles').set({ hits: sql`greatest(hits - 1, 0)` }).where('key', '=', key).execute();
}

/** Forgets a key's counter (a successful sign-in clears its account's failures). */
export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.deleteFrom('throttles').where('key', '=', key).execute();
}

/** Deletes windows that have ended. */
export async function purgeThrottles(db: Db): Promise<void> {
  await db.deleteFrom('throttles').where('reset_at', '<=', sql<Date>`now()`).execute();
}
