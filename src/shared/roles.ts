/**
 * Roles are data: the features that need them declare them through {@link registerRoles} (on both
 * sides: a feature's server face and its client face register the same declarations), and the rest
 * of the code treats a role as a name. The server checks every route's `config.roles` and every
 * descriptor's permissions against the registered names at start-up, and every request against its
 * route's roles; the client's guards mirror them.
 *
 * @example registerRoles([{ name: 'reviewer', home: '/reviews', link: { entity: 'panel', column: 'panel_id', userField: 'panelId', messages } }])
 */
export type Role = string;

/**
 * An account of a role may stand for one record of an entity (a reviewer for their panel record).
 * The server stores the record's id in a column of `users` (added by the declaring feature's
 * migration) and reads and writes it by this declaration.
 */
export interface RoleLink {
  /** The entity whose record the account stands for (its descriptor name). */
  entity: string;
  /** The `users` column holding the record's id; also the field naming it in account bodies and lists. */
  column: string;
  /** The field carrying it on the signed-in user (the sign-in answer, `GET /api/auth/me`); null when unlinked. */
  userField: string;
  /** Message keys of a refused link: not an id, no such record, a role that has no such link. */
  messages: { invalid: string; unknown: string; notThisRole: string };
}

/** One role, as a feature declares it. */
export interface RoleDeclaration {
  /** The name routes, descriptor permissions and access tokens carry (`admin`). */
  name: Role;
  /** Where an account of this role lands after signing in, and what `/` leads to (`/dashboard`). */
  home: string;
  link?: RoleLink;
}

/** The role of the first account and of the accounts that may do anything: a route naming no roles allows only it. */
export const ADMIN_ROLE: Role = 'admin';

/** Roles a non-public API route allows when it declares none: the console is for admins. */
export const DEFAULT_ROUTE_ROLES: readonly Role[] = [ADMIN_ROLE];

/** Where a role that declares no home (or an unknown one) lands. */
const DEFAULT_HOME = '/dashboard';

const declared = new Map<Role, RoleDeclaration>();
const names: Role[] = [];

/** Role names and link columns: lower snake_case. */
const NAME = /^[a-z][a-z0-9_]*$/;

const same = (a: RoleDeclaration, b: RoleDeclaration) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Declares roles. A name declared again with the same declaration is ignored (both faces of a
 * feature register theirs); declared differently, it is an error, as are two links on one column.
 */
export function registerRoles(roles: readonly RoleDeclaration[]): void {
  for (const role of roles) {
    if (typeof role.name !== 'string' || !NAME.test(role.name)) {
      throw new Error(`A role name must be lower snake_case, not "${String(role.name)}".`);
    }
    const existing = declared.get(role.name);
    if (existing && !same(existing, role)) throw new Error(`The role "${role.name}" is declared twice, differently.`);
    if (role.link) {
      if (!NAME.test(role.link.column)) {
        throw new Error(`The role "${role.name}" links through "${role.link.column}", which is not a column name.`);
      }
      const other = [...declared.values()].find((candidate) => candidate.name !== role.name && candidate.link?.column === role.link!.column);
      if (other) throw new Error(`The roles "${other.name}" and "${role.name}" both link through users.${role.link.column}.`);
    }
    if (existing) continue;
    declared.set(role.name, Object.freeze({ ...role, ...(role.link ? { link: Object.freeze({ ...role.link }) } : {}) }));
    names.push(role.name);
  }
}

/** Every declared role, in declaration order. */
export function registeredRoles(): readonly RoleDeclaration[] {
  return [...declared.values()];
}

/**
 * The declared roles' names: what a route open to every signed-in account allows. Read it when it
 * is used (a route registering, a guard rendering), not into a constant while modules load.
 */
export function roleNames(): Role[] {
  return [...names];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && declared.has(value);
}

/** The declaration of a role, when declared. */
export function roleDeclaration(role: string | undefined): RoleDeclaration | undefined {
  return role === undefined ? undefined : declared.get(role);
}

/** Every declared link, with the role declaring it. */
export function roleLinks(): Array<RoleLink & { role: Role }> {
  return registeredRoles().flatMap((role) => (role.link ? [{ ...role.link, role: role.name }] : []));
}

/** Where a role lands after signing in, and what `/` leads to: its declared home, else the dashboard. */
export function homePathFor(role: string | undefined): string {
  return roleDeclaration(role)?.home ?? DEFAULT_HOME;
}
