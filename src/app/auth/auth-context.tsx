import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { describeError } from '../../engine/data/api-error.js';
import type { AuthUser, LoginResponse, TwoFactorChallenge } from '../../shared/api-contract.js';
import i18n, { changeLanguage, toLanguage } from '../i18n.js';
import { authApi } from './auth-api.js';
import { tokenStore } from './session.js';

/** Set when the visitor picked a language before signing in; that choice then wins over the profile's. */
export const LANGUAGE_CHOSEN_KEY = 'language_chosen';

/** Auth state and the actions on it. */
export interface AuthContextValue {
  user: AuthUser | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  /** True while a new tab waits for another tab's session, or a session without a user record loads it. */
  isBootstrapping: boolean;
  error: string | null;
  /**
   * POST /api/login; stores tokens and user, applies the profile's preferences. Throws ApiError.
   * When the account has two-factor on (or must enrol), nothing is stored: the challenge comes back
   * for the second step, which ends with {@link completeSignIn}.
   */
  signIn(email: string, password: string): Promise<AuthUser | TwoFactorChallenge>;
  /** Stores the session a two-factor step opened. */
  completeSignIn(answer: LoginResponse): Promise<AuthUser>;
  /**
   * POST /api/logout; resolves whether the server agreed. The caller then navigates with the
   * authorised-logout flag, and the page that receives it clears the session ({@link endSession}).
   */
  signOutOnServer(): Promise<boolean>;
  /** Clears the session locally (and in the other tabs). */
  endSession(): void;
  /** Stores a token validated by the token callback (no refresh token: it lasts until it expires). */
  acceptToken(token: string, user: AuthUser, expiresInSeconds: number): void;
  /** Replaces the user record after a profile change. */
  setUser(user: AuthUser): void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** Remembers that the language was chosen explicitly, with the switcher or a `?lng=` link. */
export function markLanguageChosen(language: string): void {
  try {
    sessionStorage.setItem(LANGUAGE_CHOSEN_KEY, language);
  } catch {
    // Without sessionStorage the profile's language simply wins at the next sign-in.
  }
}

if (typeof window !== 'undefined') {
  const requested = new URLSearchParams(window.location.search).get('lng');
  if (requested) markLanguageChosen(requested);
}

/** Applies the profile's language, unless the visitor chose one on the sign-in page (then saves that). */
async function applyLanguagePreference(user: AuthUser): Promise<void> {
  let chosen: string | null = null;
  try {
    chosen = sessionStorage.getItem(LANGUAGE_CHOSEN_KEY);
  } catch {
    chosen = null;
  }
  if (!chosen) {
    await changeLanguage(toLanguage(user.preferences?.language));
    return;
  }
  const language = toLanguage(i18n.resolvedLanguage);
  if (language !== user.preferences?.language) {
    authApi.updateMe({ preferences: { language } }).then(
      (updated) => tokenStore.setUser(updated),
      () => undefined,
    );
  }
}

/** Provides {@link AuthContextValue}, kept in step with the token store (and so with other tabs). */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<AuthUser | null>(() => (tokenStore.hasSession() ? tokenStore.getUser() : null));
  const [isAuthenticated, setAuthenticated] = useState(() => tokenStore.hasSession());
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isBootstrapping, setBootstrapping] = useState(() => !tokenStore.hasSession() && tokenStore.getUser() !== null);

  useEffect(() => {
    const sync = () => {
      const signedIn = tokenStore.hasSession();
      setAuthenticated(signedIn);
      setUserState(signedIn ? tokenStore.getUser() : null);
    };
    const unsubscribe = tokenStore.subscribe(sync);
    tokenStore.start();
    sync();
    if (!tokenStore.hasSession()) {
      void tokenStore.requestFromOtherTabs().finally(() => setBootstrapping(false));
    } else if (!tokenStore.getUser()) {
      setBootstrapping(true);
      authApi
        .me()
        .then(
          (me) => tokenStore.setUser(me),
          () => undefined,
        )
        .finally(() => setBootstrapping(false));
    }
    return () => {
      unsubscribe();
    };
  }, []);

  const signIn = useCallback(async (email: string, password: string) => {
    setLoading(true);
    setError(null);
    try {
      const answer = await authApi.login(email, password);
      if ('challengeToken' in answer) return answer;
      tokenStore.setSession(answer, answer.data);
      await applyLanguagePreference(answer.data);
      return answer.data;
    } catch (caught) {
      setError(describeError(caught, (key) => i18n.t(key)));
      throw caught;
    } finally {
      setLoading(false);
    }
  }, []);

  const completeSignIn = useCallback(async (answer: LoginResponse) => {
    tokenStore.setSession(answer, answer.data);
    await applyLanguagePreference(answer.data);
    return answer.data;
  }, []);

  const signOutOnServer = useCallback(async () => {
    try {
      await authApi.logout(tokenStore.read()?.refreshToken || undefined);
      return true;
    } catch {
      return false;
    }
  }, []);

  const endSession = useCallback(() => {
    if (tokenStore.hasSession() || tokenStore.getUser()) tokenStore.clear('LOGOUT');
  }, []);

  const acceptToken = useCallback((token: string, next: AuthUser, expiresInSeconds: number) => {
    tokenStore.setSession({ token, refreshToken: '', expiresIn: expiresInSeconds }, next);
    void applyLanguagePreference(next);
  }, []);

  const setUser = useCallback((next: AuthUser) => tokenStore.setUser(next), []);

  const value = useMemo<AuthContextValue>(
    () => ({ user, isAuthenticated, isLoading, isBootstrapping, error, signIn, completeSignIn, signOutOnServer, endSession, acceptToken, setUser }),
    [user, isAuthenticated, isLoading, isBootstrapping, error, signIn, completeSignIn, signOutOnServer, endSession, acceptToken, setUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The auth state and actions; throws outside an {@link AuthProvider}. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth() needs an <AuthProvider> above it.');
  return value;
}
