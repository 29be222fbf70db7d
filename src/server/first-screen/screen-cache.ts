import { createHash } from 'node:crypto';
import type { FirstScreen } from '../../shared/first-screen.js';

/** A rendered screen and its compressed bodies, made once each when first asked for. */
export interface CachedScreen extends FirstScreen {
  encoded: Map<string, Buffer>;
}

/**
 * The last first screens rendered, by everything their render read: the caller's role, account and
 * language, the address, the sidebar's state, the product's name and the very list page the screen
 * shows (its rows, total and page, as the list route answered them, which its own cache keys on the
 * data's version). A changed row, a new name or another page is another key; nothing goes stale, an
 * old entry only waits to be pushed out. Reloads and the many people who open the same list page
 * get it without a render (a few milliseconds instead of tens). `entries` 0 keeps none.
 */
export class ScreenCache {
  private readonly screens = new Map<string, CachedScreen>();

  constructor(private readonly entries: number) {}

  /** The key of a render's input (its parts as JSON, hashed: a list page is some 15 KB). */
  static key(parts: unknown[]): string {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(JSON.stringify(part) ?? 'undefined').update('\u0000');
    return hash.digest('base64url');
  }

  get(key: string): CachedScreen | undefined {
    const found = this.screens.get(key);
    if (!found) return undefined;
    // Most recently used last: the first key is the one to drop.
    this.screens.delete(key);
    this.screens.set(key, found);
    return found;
  }

  set(key: string, screen: FirstScreen): CachedScreen {
    const entry: CachedScreen = { ...screen, encoded: new Map() };
    if (this.entries <= 0) return entry;
    this.screens.delete(key);
    this.screens.set(key, entry);
    while (this.screens.size > this.entries) this.screens.delete(this.screens.keys().next().value!);
    return entry;
  }
}
