import type { ClientExtension } from '../../engine/index.js';
import { accountRoles } from './index.js';

/**
 * Accounts' client face: the roles it declares (admin, juror: as its server face does), the
 * accounts screen (its own chunk) and its menu entry, and the profile page's two-factor card
 * (every signed-in user's).
 */
export const accountsClient: ClientExtension = {
  roles: accountRoles,
  screens: [{ path: '/manage-account', roles: ['admin'], load: () => import('./client/accounts-page.js') }],
  menuEntries: [{ group: 'setup', order: 82, to: '/manage-account', labelKey: 'nav.accounts', icon: 'LockClosedIcon', roles: ['admin'] }],
  profileCards: [{ id: 'two-factor', order: 10, load: () => import('./client/two-factor-card.js') }],
};
