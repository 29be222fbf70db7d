import type { ClientExtension } from '../../engine/index.js';
import { accountRoles, type accountsNames } from './index.js';

/**
 * Accounts' client face: the roles it declares (admin, juror: as its server face does), the
 * accounts screen (its own chunk) and its menu entry, the profile page's two-factor card (every
 * signed-in user's), a linked record's portal account on its detail page (`portal-account`: a
 * juror's account state and 'Invite to the jury portal'), and the jury portal invitations screen
 * (many jurors at once), which the jurors list's row action `portal-invite` opens.
 */
export const accountsClient: ClientExtension<typeof accountsNames> = {
  roles: accountRoles,
  // The `portal-account` cell and the `portal-invite` row action (a chunk of their own).
  lazy: () => import('./client/registrations.js'),
  screens: [
    { path: '/manage-account', roles: ['admin'], load: () => import('./client/accounts-page.js') },
    { path: '/jury-portal-invites', roles: ['admin'], load: () => import('./client/portal-invites-screen.js') },
  ],
  menuEntries: [
    { group: 'setup', order: 82, to: '/manage-account', labelKey: 'nav.accounts', icon: 'LockClosedIcon', roles: ['admin'] },
    { group: 'judging', order: 61, to: '/jury-portal-invites', labelKey: 'accounts.portal.bulkTitle', icon: 'EnvelopeClosedIcon', roles: ['admin'] },
  ],
  profileCards: [{ id: 'two-factor', order: 10, load: () => import('./client/two-factor-card.js') }],
};
