import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import { PRODUCT_ID } from '../../shared/product.js';
import { cachedProductName } from '../settings/product-name.js';

/** TOTP as authenticator apps expect it: SHA-1, 6 digits, 30 s steps; ±1 step is accepted. */
export const TOTP_PERIOD = 30;
const TOTP_WINDOW = 1;
/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * The key that encrypted TOTP secrets at rest before the data key (`src/server/data-key.ts`):
 * `DATA_KEY` when set, else derived from the JWT secret (HKDF, its own label, so the two keys are
 * never the same bytes). The server now derives it from its data key; this one still opens the
 * secrets it sealed (they are sealed again at start-up).
 */
export function totpKeyFrom(jwtSecret: Uint8Array, dataKey?: string): Buffer {
  const source = dataKey ? Buffer.from(dataKey, 'utf8') : jwtSecret;
  return Buffer.from(hkdfSync('sha256', source, Buffer.alloc(0), `${PRODUCT_ID} ${TOTP_KEY_LABEL}`, 32));
}

/** The HKDF label of the TOTP secrets' key (`deriveKey(dataKey, TOTP_KEY_LABEL)`, `src/server/data-key.ts`). */
export const TOTP_KEY_LABEL = 'totp-secret v1';

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** Decrypts {@link encryptSecret}'s output; throws when it was altered or the key differs. */
export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown secret format.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A new secret (160 random bits), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The enrolment data: the secret, its `otpauth://` URI and that URI as a QR code (SVG data URI). */
export function enrolmentOf(secret: string, account: string): { secret: string; otpauthUrl: string; qrCode: string } {
  const otpauthUrl = new TOTP({ issuer: cachedProductName(), label: account, secret: Secret.fromBase32(secret), period: TOTP_PERIOD }).toString();
  const svg = renderSVG(otpauthUrl, { border: 2 });
  return { secret, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The time step a code of `now` belongs to. */
export function currentStep(now = Date.now()): number {
  return TOTP.counter({ period: TOTP_PERIOD, timestamp: now });
}

/** The code for a secret at a time (tests and the enrolment check use it). */
export function totpCode(secret: string, now = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), period: TOTP_PERIOD, timestamp: now });
}

/**
 * The time step a 6-digit code matches within ±1 step of `now`, or null. The caller refuses a step
 * not newer than the last one accepted, so each code works once.
 */
export function matchTotpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), period: TOTP_PERIOD, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : currentStep(now) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes `xxxxx-xxxxx` (about 49 bits each), shown once. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const part = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: count }, () => `${part()}-${part()}`);
}

/** The stored form of a recovery code: SHA-256 of its normalised text (case, spaces and dash ignored). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
}

export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Whether an entered code has the shape of a recovery code (rather than a TOTP code). */
export function isRecoveryCodeShape(code: string): boolean {
  return /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(code));
}
