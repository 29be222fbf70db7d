import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../engine/data/api-error.js';
import { homePathFor } from '../../shared/roles.js';
import { authApi } from '../auth/auth-api.js';
import { useAuth } from '../auth/auth-context.js';
import { LoadingPage } from './loading-page.js';
import type { LoginState } from './login-page.js';

const DEFAULT_LIFETIME_SECONDS = 3600;

/**
 * Seconds until a JWT's `exp`; the spec's rule: a token without three dot-separated segments has
 * no claims (then the default 3600 s applies).
 */
export function secondsUntilExpiry(token: string, nowMs = Date.now()): number {
  const parts = token.split('.');
  if (parts.length !== 3) return DEFAULT_LIFETIME_SECONDS;
  try {
    const payload = JSON.parse(atob(parts[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    if (typeof payload.exp !== 'number') return DEFAULT_LIFETIME_SECONDS;
    return Math.max(0, Math.floor(payload.exp - nowMs / 1000));
  } catch {
    return DEFAULT_LIFETIME_SECONDS;
  }
}

/**
 * `/authorizer?token=`: validates the token with `GET /api/auth/check` before storing it, then
 * goes to `/profile` for role `user`, else the role's home (`homePathFor`); an invalid token goes to `/login` with a message.
 */
export function AuthorizerPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { acceptToken } = useAuth();
  const started = useRef(false);
  const token = params.get('token') ?? '';

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fail = (cause: string) =>
      void navigate('/login', {
        replace: true,
        state: { messageKey: 'errors.authCheckFailed', messageValues: { cause } } satisfies LoginState,
      });
    if (!token) {
      fail('token');
      return;
    }
    authApi.check(token).then(
      (user) => {
        acceptToken(token, user, secondsUntilExpiry(token));
        void navigate(user.role === 'user' ? '/profile' : homePathFor(user.role), { replace: true });
      },
      (error: unknown) => fail(error instanceof ApiError ? error.code : 'NETWORK'),
    );
  }, [token, acceptToken, navigate]);

  return <LoadingPage />;
}

export { AuthorizerPage as Component };
export default AuthorizerPage;
