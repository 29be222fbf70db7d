import type { AccessClaims } from './tokens.js';

/**
 * A per-process cache of access tokens already verified, each kept until its own `exp` (never
 * longer), so the guard checks an HS256 signature (WebCrypto, async, key import included) once per
 * token instead of on every request. Only successful verifications are stored, keyed by the whole
 * token string, so a token altered in any byte is verified afresh. Session liveness is not cached
 * here: the guard still asks the {@link SessionCache} (≤1 s) on every request.
 */
export class AccessTokenCache {
  readonly #entries = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  get(token: string, now = Date.now()): AccessClaims | undefined {
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (now >= entry.expiresAtMs) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry.claims;
  }

  /** Stores verified claims until the token's `exp` (read from its payload); ignored without one. */
  set(token: string, claims: AccessClaims): void {
    const exp = expiryOf(token);
    if (exp === undefined) return;
    if (this.#entries.size >= this.maxEntries) {
      // Oldest first (insertion order): many distinct tokens cannot grow memory without bound.
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(token, { claims, expiresAtMs: exp * 1000 });
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** The `exp` claim (seconds) of a JWT whose signature has already been verified. */
function expiryOf(token: string): number | undefined {
  try {
    const exp = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}
