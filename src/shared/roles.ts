/**
 * The roles an account may have: `admin` uses the whole console, `juror` only the
 * jury portal. Descriptor permissions and route configs name these; the server checks them on
 * every request and the client's guards mirror them.
 */
export const ROLES = ['admin', 'juror'] as const;

export type Role = (typeof ROLES)[number];

/** Roles a non-public API route allows when it declares none: the console is for admins. */
export const DEFAULT_ROUTE_ROLES: readonly Role[] = ['admin'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Where a role lands after signing in, and what `/` leads to. */
export function homePathFor(role: string | undefined): string {
  return role === 'juror' ? '/jury' : '/dashboard';
}
