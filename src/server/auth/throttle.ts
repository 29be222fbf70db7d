import { type Kysely, sql } from 'kysely';
import type { SystemTables } from '../db/system-tables.js';

type Db = Kysely<SystemTables>;

/** A fixed-window limit: at most `limit` hits per `windowSeconds`. */
export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

/** The fixed limits the auth routes use; sign-in and reset mail are in `lockout.ts`. */
export const THROTTLE_RULES = {
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
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
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

/**
 * Progressive delays: `free` attempts at once, then each further attempt only after a wait that
 * doubles from `baseDelaySeconds` up to `maxDelaySeconds`, counted from the previous attempt. The
 * window slides: it ends `windowSeconds` after the last counted attempt.
 */
export interface DelayRule {
  free: number;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  windowSeconds: number;
}

/** The wait a {@link DelayRule} asks for after `attempts` counted attempts. */
export function delayAfter(rule: DelayRule, attempts: number): number {
  if (attempts < rule.free) return 0;
  return Math.min(rule.maxDelaySeconds, rule.baseDelaySeconds * 2 ** (attempts - rule.free));
}

/**
 * Counts one attempt on `key` under a {@link DelayRule} unless its wait is still running, in one
 * atomic upsert (so parallel attempts cannot slip in together: each sees the one before it).
 * A refused attempt is not counted and does not move the wait.
 */
export async function gateThrottle(db: Db, key: string, rule: DelayRule): Promise<{ allowed: boolean; retryAfter: number }> {
  const wait = sql`least(${rule.maxDelaySeconds}::float8, case when throttles.hits < ${rule.free} then 0
    else ${rule.baseDelaySeconds}::float8 * power(2, throttles.hits - ${rule.free}) end)`;
  const last = sql`throttles.reset_at - make_interval(secs => ${rule.windowSeconds})`;
  const refused = sql`(throttles.reset_at > now() and now() < ${last} + make_interval(secs => ${wait}))`;
  const { rows } = await sql<{ hits: number; reset_at: Date; counted: boolean }>`
    insert into throttles (key, hits, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    on conflict (key) do update set
      hits = case when throttles.reset_at <= now() then 1 when ${refused} then throttles.hits else throttles.hits + 1 end,
      reset_at = case when ${refused} then throttles.reset_at else excluded.reset_at end
    returning hits, reset_at = now() + make_interval(secs => ${rule.windowSeconds}) as counted,
      extract(epoch from reset_at - now())::float8 as until_reset`.execute(db);
  const row = rows[0] as unknown as { hits: number; counted: boolean; until_reset: number };
  if (row.counted) return { allowed: true, retryAfter: 0 };
  const sinceLast = rule.windowSeconds - Number(row.until_reset);
  return { allowed: false, retryAfter: Math.max(1, Math.ceil(delayAfter(rule, row.hits) - sinceLast)) };
}

/** Moves a sliding window's last attempt to now (a {@link DelayRule}'s wait then runs from now). */
export async function restartThrottleWindow(db: Db, key: string, windowSeconds: number): Promise<void> {
  await db
    .updateTable('throttles')
    .set({ reset_at: sql`now() + make_interval(secs => ${windowSeconds})` })
    .where('key', '=', key)
    .execute();
}
