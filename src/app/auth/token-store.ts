import type { AuthUser, RefreshResponse } from '../../shared/api-contract.js';

/** Storage keys: tokens and expiry in sessionStorage, the user record in localStorage. */
export const TOKEN_KEYS = {
  token: 'auth_token',
  refreshToken: 'auth_refresh_token',
  expiresAt: 'auth_expires_at',
  user: 'auth_user',
} as const;

/** The token session of one tab: the access token, its refresh token and expiry (epoch ms). */
export interface TokenSession {
  token: string;
  refreshToken: string;
  expiresAt: number;
}

/** Why a session ended: signed out here or in another tab, replaced by a newer sign-in, expired, or refused. */
export type EndReason = 'LOGOUT' | 'SESSION_REPLACED' | 'EXPIRED' | 'UNAUTHENTICATED' | 'STORAGE';

/** What subscribers hear: the session (re)started or changed, or it ended. */
export type TokenStoreEvent = { type: 'session' } | { type: 'cleared'; reason: EndReason; fromOtherTab: boolean };

/** The part of BroadcastChannel the store uses (a fake in tests). */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close?(): void;
}

type ChannelMessage = { type: 'session'; session: TokenSession; user: AuthUser | null } | { type: 'cleared'; reason: EndReason } | { type: 'request' };

/** How the store is wired: storages, the refresh call, the clock and the cross-tab channel. */
export interface TokenStoreOptions {
  sessionStorage: Storage;
  localStorage: Storage;
  /** POST /api/auth/refresh; throws on a non-2xx answer (an error with `code` names the reason). */
  refresh: (refreshToken: string) => Promise<RefreshResponse>;
  now?: () => number;
  channel?: ChannelLike | null;
  /** Refresh this long before expiry when the user has been active (default 60 s). */
  refreshLeadMs?: number;
  /** Upper bound of a random delay before a scheduled refresh, so two tabs do not race (default 5 s). */
  refreshJitterMs?: number;
}

/** Keeps only the fields of a user record that may live in localStorage (nothing secret). */
export function toStoredUser(user: AuthUser): AuthUser {
  const { id, name, email, role, avatarUrl, lastLoginTimestamp, preferences } = user;
  return { id, name, email, role, avatarUrl, lastLoginTimestamp, preferences };
}

/**
 * The token store. Reads and writes the tab's tokens, refreshes them (single-flight)
 * before expiry when the user has been active, ends an idle session at expiry, treats any storage
 * read failure as signed out, and mirrors sign-in, refresh and sign-out to other tabs through a
 * BroadcastChannel (a new tab asks the others for the session).
 */
export class TokenStore {
  private readonly opts: Required<Omit<TokenStoreOptions, 'channel'>> & { channel: ChannelLike | null };
  private readonly listeners = new Set<(event: TokenStoreEvent) => void>();
  private refreshing: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private issuedAt: number;
  private lastActivity = 0;
  /** The last user record read, with the stored text it came from. */
  private parsedUser: { text: string; user: AuthUser } | null = null;
  private started = false;
  private clearing = false;
  private endReason: EndReason | null = null;

  constructor(options: TokenStoreOptions) {
    this.opts = {
      now: () => Date.now(),
      channel: null,
      refreshLeadMs: 60_000,
      refreshJitterMs: 5_000,
      ...options,
    } as TokenStore['opts'];
    this.issuedAt = this.opts.now();
  }

  /** Why this tab's last session ended (null while signed in or before any session ended). */
  get lastEndReason(): EndReason | null {
    return this.endReason;
  }

  /** The tab's session, or null. A storage that cannot be read, or holds garbage, clears the tokens. */
  read(): TokenSession | null {
    let token: string | null;
    let refreshToken: string | null;
    let expiresRaw: string | null;
    try {
      token = this.opts.sessionStorage.getItem(TOKEN_KEYS.token);
      refreshToken = this.opts.sessionStorage.getItem(TOKEN_KEYS.refreshToken);
      expiresRaw = this.opts.sessionStorage.getItem(TOKEN_KEYS.expiresAt);
    } catch {
      this.clear('STORAGE');
      return null;
    }
    if (!token) return null;
    const expiresAt = Number(expiresRaw);
    if (!expiresRaw || !Number.isFinite(expiresAt)) {
      this.clear('STORAGE');
      return null;
    }
    return { token, refreshToken: refreshToken ?? '', expiresAt };
  }

  /** The stored user record, or null (an unreadable record is dropped). */
  getUser(): AuthUser | null {
    try {
      const raw = this.opts.localStorage.getItem(TOKEN_KEYS.user);
      if (!raw) return null;
      // The same record while the stored text is the same: a caller's state update with it is then no change.
      if (raw !== this.parsedUser?.text) this.parsedUser = { text: raw, user: JSON.parse(raw) as AuthUser };
      return this.parsedUser!.user;
    } catch {
      this.safely(() => this.opts.localStorage.removeItem(TOKEN_KEYS.user));
      return null;
    }
  }

  /** True while the tab holds an access token (expired or not: a request refreshes it first). */
  hasSession(): boolean {
    return this.read() !== null;
  }

  /** Milliseconds until the access token expires (negative once expired); null without a session. */
  timeLeftMs(): number | null {
    const session = this.read();
    return session ? session.expiresAt - this.opts.now() : null;
  }

  /** Stores a new session (sign-in, token callback) and tells the other tabs. */
  setSession(input: { token: string; refreshToken: string; expiresIn: number }, user?: AuthUser | null): void {
    const session = { token: input.token, refreshToken: input.refreshToken, expiresAt: this.opts.now() + input.expiresIn * 1000 };
    this.write(session, user === undefined ? this.getUser() : user);
    this.issuedAt = this.opts.now();
    this.endReason = null;
    this.post({ type: 'session', session, user: this.getUser() });
    this.schedule();
    this.emit({ type: 'session' });
  }

  /** Replaces the stored user record (after a profile change) and tells the other tabs. */
  setUser(user: AuthUser): void {
    this.safely(() => this.opts.localStorage.setItem(TOKEN_KEYS.user, JSON.stringify(toStoredUser(user))));
    const session = this.read();
    if (session) this.post({ type: 'session', session, user: this.getUser() });
    this.emit({ type: 'session' });
  }

  /** Removes tokens and the user record, tells the other tabs, and notifies subscribers. */
  clear(reason: EndReason = 'LOGOUT'): void {
    // A subscriber reading a broken storage would clear again: once is enough.
    if (this.clearing) return;
    this.clearing = true;
    try {
      this.endReason = reason;
      this.removeAll();
      this.post({ type: 'cleared', reason });
      this.emit({ type: 'cleared', reason, fromOtherTab: false });
    } finally {
      this.clearing = false;
    }
  }

  /** The access token to send, refreshed first when it has expired; null when signed out. */
  async getValidAccessToken(): Promise<string | null> {
    const session = this.read();
    if (!session) return null;
    if (session.expiresAt > this.opts.now()) return session.token;
    return (await this.refresh()) ? (this.read()?.token ?? null) : null;
  }

  /**
   * Exchanges the refresh token for new tokens; concurrent calls share one request. On failure
   * everything is cleared (reason `SESSION_REPLACED` when the server says so, else `EXPIRED`).
   */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Notes user activity (input events); an active user's session is refreshed before it expires. */
  noteActivity(): void {
    this.lastActivity = this.opts.now();
  }

  /** True when the user has done something since the current token was issued. */
  isActiveSinceIssue(): boolean {
    return this.lastActivity >= this.issuedAt;
  }

  /** Subscribes to session changes; returns the unsubscribe function. */
  subscribe(listener: (event: TokenStoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts listening to other tabs and the refresh timer. Idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.opts.channel?.addEventListener('message', this.onMessage);
    this.schedule();
  }

  /** Stops the timer and the cross-tab listener. */
  stop(): void {
    this.started = false;
    this.opts.channel?.removeEventListener('message', this.onMessage);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * A tab opened without a session asks the others for theirs; resolves true when one answered
   * within `timeoutMs`.
   */
  requestFromOtherTabs(timeoutMs = 250): Promise<boolean> {
    if (!this.opts.channel || this.hasSession()) return Promise.resolve(this.hasSession());
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(value);
      };
      const unsubscribe = this.subscribe((event) => {
        if (event.type === 'session') done(true);
      });
      const timer = setTimeout(() => done(this.hasSession()), timeoutMs);
      this.post({ type: 'request' });
    });
  }

  private async doRefresh(): Promise<boolean> {
    const session = this.read();
    if (!session?.refreshToken) {
      if (session) this.clear('EXPIRED');
      return false;
    }
    try {
      const answer = await this.opts.refresh(session.refreshToken);
      // Another tab may have signed out meanwhile; do not resurrect its session.
      if (!this.read()) return false;
      this.setSession({ token: answer.accessToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn });
      return true;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      this.clear(code === 'SESSION_REPLACED' ? 'SESSION_REPLACED' : 'EXPIRED');
      return false;
    }
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.started) return;
    const session = this.read();
    if (!session) return;
    const now = this.opts.now();
    const lead = session.expiresAt - this.opts.refreshLeadMs - now;
    if (lead > 0) {
      this.timer = setTimeout(() => this.onLead(session.expiresAt), lead);
    } else {
      this.timer = setTimeout(() => this.onExpiry(session.expiresAt), Math.max(0, session.expiresAt - now));
    }
  }

  private onLead(expiresAt: number): void {
    this.timer = null;
    if (!this.isActiveSinceIssue()) {
      this.timer = setTimeout(() => this.onExpiry(expiresAt), Math.max(0, expiresAt - this.opts.now()));
      return;
    }
    const jitter = Math.floor(Math.random() * this.opts.refreshJitterMs);
    this.timer = setTimeout(() => {
      this.timer = null;
      // Another tab refreshed during the jitter: its new tokens have already arrived.
      if (this.read()?.expiresAt === expiresAt) void this.refresh();
    }, jitter);
  }

  private onExpiry(expiresAt: number): void {
    this.timer = null;
    const session = this.read();
    if (!session || session.expiresAt !== expiresAt) return;
    if (this.isActiveSinceIssue()) void this.refresh();
    else this.clear('EXPIRED');
  }

  private readonly onMessage = (event: MessageEvent) => {
    const message = event.data as ChannelMessage | null;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'session') {
      this.write(message.session, message.user);
      this.issuedAt = this.opts.now();
      this.endReason = null;
      this.schedule();
      this.emit({ type: 'session' });
    } else if (message.type === 'cleared') {
      if (!this.read() && !this.getUser()) return;
      this.endReason = message.reason;
      this.removeAll();
      this.emit({ type: 'cleared', reason: message.reason, fromOtherTab: true });
    } else if (message.type === 'request') {
      const session = this.read();
      if (session) this.post({ type: 'session', session, user: this.getUser() });
    }
  };

  private write(session: TokenSession, user: AuthUser | null): void {
    this.safely(() => {
      this.opts.sessionStorage.setItem(TOKEN_KEYS.token, session.token);
      this.opts.sessionStorage.setItem(TOKEN_KEYS.refreshToken, session.refreshToken);
      this.opts.sessionStorage.setItem(TOKEN_KEYS.expiresAt, String(session.expiresAt));
    });
    if (user) this.safely(() => this.opts.localStorage.setItem(TOKEN_KEYS.user, JSON.stringify(toStoredUser(user))));
  }

  private removeAll(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.safely(() => {
      this.opts.sessionStorage.removeItem(TOKEN_KEYS.token);
      this.opts.sessionStorage.removeItem(TOKEN_KEYS.refreshToken);
      this.opts.sessionStorage.removeItem(TOKEN_KEYS.expiresAt);
    });
    this.safely(() => this.opts.localStorage.removeItem(TOKEN_KEYS.user));
  }

  private post(message: ChannelMessage): void {
    try {
      this.opts.channel?.postMessage(message);
    } catch {
      // A closed channel only loses the mirroring, never the local change.
    }
  }

  private emit(event: TokenStoreEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private safely(action: () => void): void {
    try {
      action();
    } catch {
      // Storage full or blocked: the in-memory flow goes on; the next read treats it as signed out.
    }
  }
}
