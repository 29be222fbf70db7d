import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { PRODUCT_ID } from '../../shared/product.js';

/** Access-token lifetime in seconds. */
export const ACCESS_TOKEN_TTL = 3600;

/** What a verified access token says. */
export interface AccessClaims {
  userId: number;
  sid: string;
  email: string;
  name: string;
  role: string;
}

/** Signs an HS256 access JWT (`sub`, `sid`, `email`, `name`, `role`, `typ: 'access'`, `iat`, `exp`). */
export async function signAccessToken(key: Uint8Array, claims: AccessClaims, ttlSeconds = ACCESS_TOKEN_TTL): Promise<string> {
  return new SignJWT({ sid: claims.sid, email: claims.email, name: claims.name, role: claims.role, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

/**
 * Verifies an access JWT with the algorithm pinned to HS256 and returns its claims, or null when it
 * is malformed, unsigned (`alg: none`), signed with another key, expired, or not an access token.
 */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat'] });
    const { sub, sid, email, name, role, typ } = payload as Record<string, unknown>;
    const userId = Number(sub);
    if (typ !== 'access' || !Number.isSafeInteger(userId) || userId <= 0) return null;
    if (typeof sid !== 'string' || typeof email !== 'string' || typeof name !== 'string' || typeof role !== 'string') return null;
    return { userId, sid, email, name, role };
  } catch {
    return null;
  }
}

/** A new session id: 144 random bits, base64url (never contains a dot). */
export function newSessionId(): string {
  return randomBytes(18).toString('base64url');
}

/** The refresh-token MAC key, derived from the JWT secret so one secret serves both without reuse. */
export function refreshKeyFrom(jwtSecret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, Buffer.alloc(0), `${PRODUCT_ID} refresh-token v1`, 32));
}

function mac(key: Buffer, sid: string, generation: number): string {
  return createHmac('sha256', key).update(`${sid}.${generation}`).digest('base64url');
}

/** The opaque refresh token `<sid>.<generation>.<mac>`; nothing stored in the database can forge it. */
export function makeRefreshToken(key: Buffer, sid: string, generation: number): string {
  return `${sid}.${generation}.${mac(key, sid, generation)}`;
}

/** Parses and authenticates a refresh token; null when malformed or its MAC does not match. */
export function parseRefreshToken(key: Buffer, token: string): { sid: string; generation: number } | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [sid, gen, given] = parts as [string, string, string];
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(sid) || !/^\d{1,9}$/.test(gen)) return null;
  const generation = Number(gen);
  const expected = Buffer.from(mac(key, sid, generation));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { sid, generation };
}

/** How long the two-factor step of a sign-in may take. */
export const CHALLENGE_TTL = 300;

/** What a sign-in challenge token says: whose password was right, and which second step is due. */
export interface ChallengeClaims {
  userId: number;
  /** `verify`: enter a code; `enrol`: set two-factor up first (REQUIRE_2FA_FOR_ADMINS). */
  step: 'verify' | 'enrol';
  /**
   * The account's last sign-in (epoch ms, 0 for none) when the password was checked: a session
   * opened since then ends the challenge, so one token opens at most one session.
   */
  since: number;
}

/**
 * Signs the short-lived token that carries a sign-in from the password to the two-factor step
 * (`typ: 'mfa'`): no session, no `sid`, so the guard never takes it as an access token.
 */
export async function signChallengeToken(key: Uint8Array, claims: ChallengeClaims, ttlSeconds = CHALLENGE_TTL): Promise<string> {
  return new SignJWT({ step: claims.step, typ: 'mfa', since: claims.since })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

/** Verifies a challenge token (HS256 pinned, `typ: 'mfa'`, unexpired); null otherwise. */
export async function verifyChallengeToken(key: Uint8Array, token: string): Promise<ChallengeClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat'] });
    const { sub, step, typ, since } = payload as Record<string, unknown>;
    const userId = Number(sub);
    if (typ !== 'mfa' || !Number.isSafeInteger(userId) || userId <= 0 || (step !== 'verify' && step !== 'enrol')) return null;
    if (typeof since !== 'number' || !Number.isSafeInteger(since) || since < 0) return null;
    return { userId, step, since };
  } catch {
    return null;
  }
}
