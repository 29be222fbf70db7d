/** What the guard needs to know about a session. */
export interface CachedSession {
  live: boolean;
  revokedReason: string | null;
  userId: number;
}

/**
 * A per-process cache of session checks, each entry kept at most `ttlMs` (1 s by default), so a
 * session revoked by another server stops working within a second. Revocations made by this
 * process drop the entry at once.
 */
export class SessionCache {
  readonly #entries = new Map<string, { value: CachedSession; at: number }>();

  constructor(
    private readonly ttlMs = 1000,
    private readonly maxEntries = 10_000,
  ) {}

  get(sid: string, now = Date.now()): CachedSession | undefined {
    const entry = this.#entries.get(sid);
    if (!entry) return undefined;
    if (now - entry.at >= this.ttlMs) {
      this.#entries.delete(sid);
      return undefined;
    }
    return entry.value;
  }

  set(sid: string, value: CachedSession, now = Date.now()): void {
    if (this.#entries.size >= this.maxEntries) {
      // Oldest first (insertion order): a burst of distinct sessions cannot grow memory without bound.
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.delete(sid);
    this.#entries.set(sid, { value, at: now });
  }

  delete(...sids: string[]): void {
    for (const sid of sids) this.#entries.delete(sid);
  }

  clear(): void {
    this.#entries.clear();
  }
}
