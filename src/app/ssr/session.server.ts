import { TokenStore } from '../auth/token-store.js';

/** A `Storage` kept in memory: the server's render has no browser storage. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

/**
 * The first-screen render's stand-in for `src/app/auth/session.ts` (build.mjs swaps it in): a
 * token store over memory, holding the caller's user record while one screen renders. It never
 * refreshes, and the render makes no request.
 */
export const tokenStore = new TokenStore({
  sessionStorage: new MemoryStorage(),
  localStorage: new MemoryStorage(),
  refresh: () => Promise.reject(new Error('The server render makes no request.')),
  channel: null,
});

export function connectHttpClient(): void {}
