import { randomBytes, type ScryptOptions, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

/** scrypt cost parameters; stored with every hash so the cost can rise later. */
export interface KdfParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt recommendation: N=2^17, r=8, p=1 (128 MiB, about as costly as argon2id 19 MiB / 2 passes). */
export const CURRENT_PARAMS: KdfParams = { N: 2 ** 17, r: 8, p: 1 };

/**
 * The cost of passwords that arrive in an import file (initial passwords of submittor accounts):
 * N=2^7, r=8 (128 KiB a hash), so that hashing does not dominate the time of an import with many
 * accounts (see docs/architecture.md, "Password hashing in imports").
 * Why that is safe enough for these passwords:
 * - they are initial passwords the programme staff chose and already hold in clear text in their
 *   spreadsheet; the hash keeps the database from being a cheaper copy of that file: a 16-byte salt
 *   per row (no precomputed tables, equal passwords look different) and a memory-hard function
 *   (each guess needs 128 KiB, which blunts GPU guessing far more than a fast hash would);
 * - the parameters are stored in each hash and {@link needsRehash} reports these as below today's
 *   cost, so the first sign-in that checks one can re-hash it at {@link CURRENT_PARAMS} (the
 *   console's own sign-in does);
 * - nothing else uses this cost: a password typed in a form, reset or changed is hashed at
 *   {@link CURRENT_PARAMS} (only a hook's `bulk` call from the import job asks for this one).
 */
export const IMPORT_PARAMS: KdfParams = { N: 2 ** 7, r: 8, p: 1 };
const SALT_BYTES = 16;

let defaultParams: KdfParams = CURRENT_PARAMS;

/**
 * Lowers the cost of new hashes in this process. Only for test processes that sign in thousands of
 * times (the property tests); nothing in the server calls it and no setting reaches it.
 */
export function setHashCostForTests(params: KdfParams): void {
  defaultParams = params;
}
const KEY_BYTES = 64;

/** Password length rules for console accounts (the rest of the policy: `shared/password-policy.ts`). */
export { POLICY_MAX as PASSWORD_MAX, POLICY_MIN as PASSWORD_MIN } from '../../shared/password-policy.js';

// Each scrypt holds 128 MiB while it runs and Node's pool would run four at once: a burst of
// sign-ins would add half a gigabyte. Two at a time caps it; the rest wait their turn.
const MAX_CONCURRENT_HASHES = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Above this much memory a hash waits for one of the {@link MAX_CONCURRENT_HASHES} slots. */
const GATED_BYTES = 16 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, params: KdfParams): Promise<Buffer> {
  // Cheap hashes (the import cost, 1 MiB) go straight to libuv's pool, whose threads bound them.
  if (128 * params.N * params.r * params.p <= GATED_BYTES) return scryptOnce(password, salt, params);
  return withHashSlot(() => scryptOnce(password, salt, params));
}

function scryptOnce(password: string, salt: Buffer, params: KdfParams): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below that.
    maxmem: 128 * params.N * params.r * params.p + 32 * 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * Hashes a password with scrypt and a fresh 16-byte salt into a self-describing string
 * `scrypt$N$r$p$salt$hash` (salt and hash base64url).
 */
export async function hashPassword(password: string, params: KdfParams = defaultParams): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  params: KdfParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid = [N, r, p].every((n) => Number.isInteger(n) && n > 0) && (N & (N - 1)) === 0 && N <= 2 ** 20 && r <= 32 && p <= 16;
  if (!valid) return null;
  return { params: { N, r, p }, salt: Buffer.from(parts[4]!, 'base64url'), key: Buffer.from(parts[5]!, 'base64url') };
}

// Verified against when an e-mail is unknown, so that path costs one scrypt like a wrong password.
// It matches no password: its "hash" is random bytes.
const dummyHash = () =>
  [
    'scrypt',
    defaultParams.N,
    defaultParams.r,
    defaultParams.p,
    randomBytes(SALT_BYTES).toString('base64url'),
    randomBytes(KEY_BYTES).toString('base64url'),
  ].join('$');
const DUMMY_HASH = dummyHash();

/**
 * Checks a password against a stored hash in constant time. With `stored` null (unknown account)
 * it still runs one full-cost scrypt and answers false, so both failures take the same time.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const dummy = defaultParams === CURRENT_PARAMS ? DUMMY_HASH : dummyHash();
  const parsed = parseHash(stored ?? dummy) ?? parseHash(dummy)!;
  const key = await scrypt(password, parsed.salt, parsed.params);
  const match = key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
  return match && stored !== null;
}

/** Whether a stored hash was made with a weaker cost than today's and should be redone at sign-in. */
export function needsRehash(stored: string, params: KdfParams = defaultParams): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  return parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p || parsed.key.length < KEY_BYTES;
}

/** A strong random password for the first admin when `ADMIN_PASSWORD` is not set (24 characters). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
