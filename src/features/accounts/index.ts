import type { ExtensionNames } from '../../shared/descriptor/extension-names.js';
import type { RoleDeclaration } from '../../shared/roles.js';

/**
 * Accounts' shared face: the roles it declares and the accounts API's wire types. Both faces
 * register {@link accountRoles} (`registerRoles(accountRoles)`): the server checks routes and
 * descriptors against them, the client's guards and `homePathFor` read them.
 */

/**
 * `admin` uses the whole console; `juror` only the jury portal, and stands for one record of the
 * `jury` entity (`users.jury_id`, `juryId` on the signed-in user, `jury_id` in the accounts API).
 */
export const accountRoles: readonly RoleDeclaration[] = [
  { name: 'admin', home: '/dashboard' },
  {
    name: 'juror',
    home: '/jury',
    link: {
      entity: 'jury',
      column: 'jury_id',
      userField: 'juryId',
      messages: { invalid: 'validation.juryId.invalid', unknown: 'validation.juryId.unknown', notThisRole: 'validation.juryId.jurorOnly' },
    },
  },
];

/**
 * The client parts descriptors may name: the detail cell showing a linked record's portal account
 * with its invite action (`portal-account`), and the list's row action opening the portal
 * invitations with that record chosen (`portal-invite`).
 */
export const accountsNames = {
  cells: ['portal-account'],
  widgets: [],
  filterInputs: [],
  rowActions: ['portal-invite'],
} as const satisfies ExtensionNames;

export type { AccountSummary, SignInRecord, TwoFactorEnrolment } from '../../shared/api-contract.js';
