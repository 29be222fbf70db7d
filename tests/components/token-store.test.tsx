import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChannelLike, TOKEN_KEYS, TokenStore, type TokenStoreEvent } from '../../src/app/auth/token-store.js';
import type { AuthUser, RefreshResponse } from '../../src/shared/api-contract.js';

/** A Storage kept in a Map; `broken` makes every read throw, like a blocked storage. */
class MemoryStorage implements Storage {
  private readonly map = new Map<string, string>();
  broken = false;
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    if (this.broken) throw new DOMException('blocked', 'SecurityError');
    return this.map.get(key) ?? null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
}

/** BroadcastChannel stand-ins: a message posted by one member reaches every other member. */
function channelHub() {
  const members = new Set<{ listeners: Set<(event: MessageEvent) => void> }>();
  return {
    join(): ChannelLike {
      const member = { listeners: new Set<(event: MessageEvent) => void>() };
      members.add(member);
      return {
        postMessage(message) {
          const data = structuredClone(message);
          for (const other of members) {
            if (other === member) continue;
            for (const listener of other.listeners) queueMicrotask(() => listener({ data } as MessageEvent));
          }
        },
        addEventListener: (_type, listener) => member.listeners.add(listener),
        removeEventListener: (_type, listener) => member.listeners.delete(listener),
      };
    },
  };
}

const user: AuthUser = {
  id: '1',
  name: 'Ada Admin',
  email: 'ada@example.com',
  role: 'admin',
  avatarUrl: null,
  lastLoginTimestamp: '2026-11-20T08:00:00Z',
  preferences: { theme: 'light', language: 'en', notifications: true },
};

function tab(refresh: (token: string) => Promise<RefreshResponse>, channel: ChannelLike | null = null) {
  const sessionStorage = new MemoryStorage();
  const localStorage = new MemoryStorage();
  const store = new TokenStore({ sessionStorage, localStorage, refresh, channel, refreshJitterMs: 1 });
  const events: TokenStoreEvent[] = [];
  store.subscribe((event) => events.push(event));
  return { store, sessionStorage, localStorage, events };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-21T10:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('token store: storage', () => {
  it('keeps tokens and the expiry in sessionStorage and only the user record in localStorage', () => {
    const { store, sessionStorage, localStorage } = tab(vi.fn());
    const secretUser = { ...user, password: 'nope', token: 'nope' } as AuthUser;
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, secretUser);
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBe('access-1');
    expect(sessionStorage.getItem(TOKEN_KEYS.refreshToken)).toBe('refresh-1');
    expect(Number(sessionStorage.getItem(TOKEN_KEYS.expiresAt))).toBe(Date.now() + 3_600_000);
    expect(JSON.parse(localStorage.getItem(TOKEN_KEYS.user)!)).toEqual(user);
    expect(localStorage.getItem(TOKEN_KEYS.user)).not.toMatch(/access-1|refresh-1|nope/);
    expect(store.timeLeftMs()).toBe(3_600_000);
  });

  it('hands out the same user record while the stored one is unchanged, so a state update with it is no change', () => {
    const { store, localStorage } = tab(vi.fn());
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, user);
    const first = store.getUser();
    expect(first).toEqual(user);
    expect(store.getUser()).toBe(first);
    store.setUser({ ...user, name: 'Ada L.' });
    expect(store.getUser()).not.toBe(first);
    expect(store.getUser()!.name).toBe('Ada L.');
    // Written by another tab: read afresh.
    localStorage.setItem(TOKEN_KEYS.user, JSON.stringify({ ...user, name: 'Ada King' }));
    expect(store.getUser()!.name).toBe('Ada King');
  });

  it('treats a storage read failure as signed out and clears the tokens', () => {
    const { store, sessionStorage, events } = tab(vi.fn());
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, user);
    sessionStorage.broken = true;
    expect(store.read()).toBeNull();
    sessionStorage.broken = false;
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBeNull();
    expect(events.at(-1)).toEqual({ type: 'cleared', reason: 'STORAGE', fromOtherTab: false });
  });

  it('clears a session whose stored expiry is not a number', () => {
    const { store, sessionStorage, events } = tab(vi.fn());
    sessionStorage.setItem(TOKEN_KEYS.token, 'access-1');
    sessionStorage.setItem(TOKEN_KEYS.expiresAt, 'soon');
    expect(store.hasSession()).toBe(false);
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBeNull();
    expect(events).toContainEqual({ type: 'cleared', reason: 'STORAGE', fromOtherTab: false });
  });
});

describe('token store: expiry and refresh', () => {
  it('returns the token while valid and refreshes once, for concurrent callers, after it expires', async () => {
    const refresh = vi.fn(async (token: string) => {
      expect(token).toBe('refresh-1');
      return { accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 3600 };
    });
    const { store, sessionStorage } = tab(refresh);
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, user);
    await expect(store.getValidAccessToken()).resolves.toBe('access-1');
    expect(refresh).not.toHaveBeenCalled();

    vi.setSystemTime(Date.now() + 3_600_001);
    const [a, b] = await Promise.all([store.getValidAccessToken(), store.getValidAccessToken()]);
    expect([a, b]).toEqual(['access-2', 'access-2']);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(TOKEN_KEYS.refreshToken)).toBe('refresh-2');
    expect(store.timeLeftMs()).toBe(3_600_000);
  });

  it('clears everything when the refresh fails', async () => {
    const { store, sessionStorage, localStorage, events } = tab(vi.fn().mockRejectedValue(Object.assign(new Error('no'), { code: 'UNAUTHENTICATED' })));
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 60 }, user);
    vi.setSystemTime(Date.now() + 61_000);
    await expect(store.getValidAccessToken()).resolves.toBeNull();
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBeNull();
    expect(localStorage.getItem(TOKEN_KEYS.user)).toBeNull();
    expect(events.at(-1)).toEqual({ type: 'cleared', reason: 'EXPIRED', fromOtherTab: false });
  });

  it('reports a session replaced by another sign-in as such when the refresh is refused for it', async () => {
    const { store, events } = tab(vi.fn().mockRejectedValue(Object.assign(new Error('replaced'), { code: 'SESSION_REPLACED' })));
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 60 }, user);
    await store.refresh();
    expect(events.at(-1)).toEqual({ type: 'cleared', reason: 'SESSION_REPLACED', fromOtherTab: false });
  });

  it('refreshes about a minute before expiry when the user has been active', async () => {
    const refresh = vi.fn(async () => ({ accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 3600 }));
    const { store } = tab(refresh);
    store.start();
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, user);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    store.noteActivity();
    await vi.advanceTimersByTimeAsync(3_600_000 - 10 * 60_000 - 61_000);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(store.read()?.token).toBe('access-2');
    store.stop();
  });

  it('does not refresh an idle session, and ends it when it expires', async () => {
    const refresh = vi.fn();
    const { store, events } = tab(refresh);
    store.start();
    store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, user);
    await vi.advanceTimersByTimeAsync(3_600_000 - 30_000);
    expect(refresh).not.toHaveBeenCalled();
    expect(store.hasSession()).toBe(true);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(refresh).not.toHaveBeenCalled();
    expect(store.hasSession()).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'cleared', reason: 'EXPIRED', fromOtherTab: false });
    store.stop();
  });
});

describe('token store: across tabs', () => {
  it('mirrors sign-in, refresh and sign-out to the other tabs', async () => {
    const hub = channelHub();
    const refresh = vi.fn(async () => ({ accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 3600 }));
    const a = tab(refresh, hub.join());
    const b = tab(vi.fn(), hub.join());
    a.store.start();
    b.store.start();

    a.store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, user);
    await flush();
    expect(b.sessionStorage.getItem(TOKEN_KEYS.token)).toBe('access-1');
    expect(b.store.getUser()?.email).toBe(user.email);
    expect(b.events.at(-1)).toEqual({ type: 'session' });

    await a.store.refresh();
    await flush();
    expect(b.sessionStorage.getItem(TOKEN_KEYS.token)).toBe('access-2');
    expect(b.sessionStorage.getItem(TOKEN_KEYS.refreshToken)).toBe('refresh-2');

    a.store.clear('LOGOUT');
    await flush();
    expect(b.store.hasSession()).toBe(false);
    expect(b.localStorage.getItem(TOKEN_KEYS.user)).toBeNull();
    expect(b.events.at(-1)).toEqual({ type: 'cleared', reason: 'LOGOUT', fromOtherTab: true });
    a.store.stop();
    b.store.stop();
  });

  it('gives a newly opened tab the session of an open one', async () => {
    const hub = channelHub();
    const a = tab(vi.fn(), hub.join());
    a.store.start();
    a.store.setSession({ token: 'access-1', refreshToken: 'refresh-1', expiresIn: 3600 }, user);
    const c = tab(vi.fn(), hub.join());
    c.store.start();
    const answered = c.store.requestFromOtherTabs(250);
    await flush();
    await expect(answered).resolves.toBe(true);
    expect(c.store.read()?.token).toBe('access-1');
    a.store.stop();
    c.store.stop();
  });

  it('gives up waiting when no other tab holds a session', async () => {
    const hub = channelHub();
    const lonely = tab(vi.fn(), hub.join());
    lonely.store.start();
    const answered = lonely.store.requestFromOtherTabs(250);
    await vi.advanceTimersByTimeAsync(300);
    await expect(answered).resolves.toBe(false);
    lonely.store.stop();
  });
});
