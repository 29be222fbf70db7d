import type { ClientExtension } from '../../engine/index.js';

/** History's client face: the audit log and the trash (each its own chunk) and their menu entries. */
export const historyClient: ClientExtension = {
  screens: [
    { path: '/audit-log', roles: ['admin'], load: () => import('./client/audit-page.js') },
    { path: '/trash', roles: ['admin'], load: () => import('./client/trash-page.js') },
  ],
  menuEntries: [
    { group: 'setup', order: 80, to: '/audit-log', labelKey: 'history.audit.nav', icon: 'CounterClockwiseClockIcon', roles: ['admin'] },
    { group: 'setup', order: 81, to: '/trash', labelKey: 'history.trash.nav', icon: 'TrashIcon', roles: ['admin'] },
  ],
};
