import type { AuthUser } from '../../shared/api-contract.js';
import { createServiceContext } from './service-context.js';

/**
 * The signed-in user, as the engine and the features' screens see it: the shell provides it (from
 * its auth state, in the signed-in frame), the screens only read it (whose own record a row is, the
 * role a part is shown to, the user's preferences).
 */
export interface SessionApi {
  /** The signed-in user; null while none is. */
  user: AuthUser | null;
}

/** The session in context (null outside a provider), and `useSession()`, which throws without one. */
export const [SessionContext, useSession] = createServiceContext<SessionApi>('useSession', 'SessionContext.Provider');
