import { configureHttpClient } from '../../engine/data/http-client.js';
import { authApi } from './auth-api.js';
import { type ChannelLike, TokenStore } from './token-store.js';

function openChannel(): ChannelLike | null {
  try {
    return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('console-auth');
  } catch {
    return null;
  }
}

/** The browser's token store, shared by the HTTP client and the auth context. */
export const tokenStore = new TokenStore({
  sessionStorage: window.sessionStorage,
  localStorage: window.localStorage,
  refresh: (refreshToken) => authApi.refresh(refreshToken),
  channel: openChannel(),
});

/**
 * Plugs the token store into the HTTP client: every request carries a fresh access token, and a
 * 401 clears the session with its reason (the app's session watcher then goes to `/logout`).
 */
export function connectHttpClient(): void {
  configureHttpClient({
    baseUrl: '/api',
    getAccessToken: () => tokenStore.getValidAccessToken(),
    onUnauthorized: (error) => tokenStore.clear(error.code === 'SESSION_REPLACED' ? 'SESSION_REPLACED' : 'UNAUTHENTICATED'),
  });
}
