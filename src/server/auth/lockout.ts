import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { PRODUCT_ID } from '../../shared/product.js';
import type { SystemTables } from '../db/system-tables.js';
import { rateLimited } from '../errors.js';
import type { ClientInfo } from './client-info.js';
import {
  clearThrottle,
  clientAddressKey,
  type DelayRule,
  gateThrottle,
  hitThrottle,
  restartThrottleWindow,
  type ThrottleRule,
  unhitThrottle,
} from './throttle.js';

/** The cookie that tells a browser which accounts have signed in from it (HttpOnly, signed). */
export const DEVICE_COOKIE = 'AC-DEVICE';
/** A year: a browser stays known while it is used. */
export const DEVICE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;
const DEVICE_TAGS_KEPT = 5;
/** How far back a sign-in from an address makes the address known to the account. */
const ADDRESS_HISTORY_DAYS = 90;

type Kind = 'login' | 'forgot' | 'code';

/**
 * Sign-in and reset-mail limits (README "Sign-in limits"). Per account and client (a known browser,
 * else the address): a few attempts at once, then waits that double. Per account across
 * unknown clients, and per address across accounts, a much higher fixed limit. A browser or address
 * that has signed in to the account before is never held back by what other clients do.
 */
export const LOCKOUT_RULES = {
  login: {
    pair: { free: 5, baseDelaySeconds: 2, maxDelaySeconds: 15 * 60, windowSeconds: 60 * 60 },
    accountFromUnknown: { limit: 100, windowSeconds: 15 * 60 },
    address: { limit: 30, windowSeconds: 15 * 60 },
  },
  // Two-factor codes after a correct password: a million codes, so a far lower account-wide limit.
  code: {
    pair: { free: 5, baseDelaySeconds: 2, maxDelaySeconds: 15 * 60, windowSeconds: 60 * 60 },
    accountFromUnknown: { limit: 20, windowSeconds: 15 * 60 },
    address: { limit: 30, windowSeconds: 15 * 60 },
  },
  forgot: {
    pair: { free: 3, baseDelaySeconds: 60, maxDelaySeconds: 60 * 60, windowSeconds: 24 * 60 * 60 },
    accountFromUnknown: { limit: 30, windowSeconds: 60 * 60 },
    address: { limit: 10, windowSeconds: 15 * 60 },
  },
} satisfies Record<Kind, { pair: DelayRule; accountFromUnknown: ThrottleRule; address: ThrottleRule }>;

/** What {@link Lockout.admit} counted, to settle once the outcome is known. */
export interface Admission {
  kind: Kind;
  email: string;
  pairKey: string;
  /** Counted only for clients the account does not know. */
  accountKey?: string;
  addressKey?: string;
  known: 'device' | 'address' | null;
}

/** Splits a device cookie into its browser id and account tags; null when malformed. */
function parseDeviceCookie(value: string | undefined): { deviceId: string; tags: string[] } | null {
  if (!value || value.length > 400) return null;
  const [deviceId = '', ...tags] = value.split('~');
  if (!/^[A-Za-z0-9_-]{22}$/.test(deviceId) || tags.some((tag) => !/^[A-Za-z0-9_-]{22}$/.test(tag))) return null;
  return { deviceId, tags };
}

/**
 * Decides whether a sign-in or reset-mail request may go ahead, and remembers the browsers that
 * signed in. The counters live in the shared `throttles` table, so every server agrees.
 */
export class Lockout {
  readonly #deviceKey: Buffer;

  constructor(
    private readonly db: Kysely<SystemTables>,
    jwtSecret: Uint8Array,
  ) {
    this.#deviceKey = Buffer.from(hkdfSync('sha256', jwtSecret, Buffer.alloc(0), `${PRODUCT_ID} device v1`, 32));
  }

  /**
   * Counts one attempt for `email` from `client`, or throws 429 with Retry-After. The same work is
   * done whether or not the account exists, so the answer tells nothing about it.
   */
  async admit(kind: Kind, email: string, client: ClientInfo): Promise<Admission> {
    const rules = LOCKOUT_RULES[kind];
    const address = clientAddressKey(client.ip);
    const device = this.knownDevice(email, client.deviceCookie);
    const known = device ? 'device' : (await this.knownAddress(email, address)) ? 'address' : null;
    const admission: Admission = {
      kind,
      email,
      known,
      pairKey: `${kind}:pair:${email}:${device ? `device:${device}` : address}`,
      ...(known ? {} : { accountKey: `${kind}:account:${email}`, addressKey: `${kind}:address:${address}` }),
    };
    const pair = await gateThrottle(this.db, admission.pairKey, rules.pair);
    if (!pair.allowed) throw rateLimited(pair.retryAfter);
    if (admission.accountKey && admission.addressKey) {
      const [account, byAddress] = await Promise.all([
        hitThrottle(this.db, admission.accountKey, rules.accountFromUnknown),
        hitThrottle(this.db, admission.addressKey, rules.address),
      ]);
      if (account.exceeded || byAddress.exceeded) {
        throw rateLimited(Math.max(account.exceeded ? account.retryAfter : 0, byAddress.exceeded ? byAddress.retryAfter : 0));
      }
    }
    return admission;
  }

  /** The attempt failed: its client's wait runs from now, not from when the password check began. */
  async failed(admission: Admission): Promise<void> {
    await restartThrottleWindow(this.db, admission.pairKey, LOCKOUT_RULES[admission.kind].pair.windowSeconds);
  }

  /** A sign-in succeeded: its client starts afresh, and the address's count gives this one back. */
  async succeeded(admission: Admission): Promise<void> {
    await Promise.all([
      clearThrottle(this.db, admission.pairKey),
      admission.accountKey ? clearThrottle(this.db, admission.accountKey) : undefined,
      admission.addressKey ? unhitThrottle(this.db, admission.addressKey) : undefined,
    ]);
  }

  /** The device cookie after `email` signed in: the browser's id and up to five accounts' tags. */
  deviceCookieAfterSignIn(email: string, current: string | undefined): string {
    const parsed = parseDeviceCookie(current) ?? { deviceId: randomBytes(16).toString('base64url'), tags: [] };
    const tag = this.tag(email, parsed.deviceId);
    const tags = [tag, ...parsed.tags.filter((t) => t !== tag)].slice(0, DEVICE_TAGS_KEPT);
    return [parsed.deviceId, ...tags].join('~');
  }

  /** The browser id when the cookie shows that `email` has signed in from this browser. */
  private knownDevice(email: string, cookie: string | undefined): string | null {
    const parsed = parseDeviceCookie(cookie);
    if (!parsed) return null;
    const expected = Buffer.from(this.tag(email, parsed.deviceId));
    return parsed.tags.some((tag) => timingSafeEqual(Buffer.from(tag), expected)) ? parsed.deviceId : null;
  }

  private tag(email: string, deviceId: string): string {
    return createHmac('sha256', this.#deviceKey).update(`${email}\u0000${deviceId}`).digest('base64url').slice(0, 22);
  }

  /** Whether the account signed in from this address (or IPv6 /64) in the last 90 days. */
  private async knownAddress(email: string, address: string): Promise<boolean> {
    const { rows } = await sql<{ ip: string | null }>`
      select distinct a.ip from audit_log a join users u on u.id = a.user_id
      where u.email = ${email} and a.action = 'auth.login'
        and a.created_at > now() - make_interval(days => ${ADDRESS_HISTORY_DAYS})
      limit 100`.execute(this.db);
    return rows.some((row) => row.ip !== null && clientAddressKey(row.ip) === address);
  }
}
