import type { ClientExtension } from '../../engine/index.js';

/** Notifications' client face: the header's bell (every signed-in user), its own chunk. */
export const notificationsClient: ClientExtension = {
  // Every signed-in role: a juror's and an entrant's own events too (admins also see new contests).
  headerItems: [{ id: 'notifications', order: 10, load: () => import('./client/notifications-popover.js') }],
  // The outbox (admins): every mail, its state, retry / cancel, an unsent invitation's link.
  screens: [{ path: '/outbox', roles: ['admin'], load: () => import('./client/outbox-page.js') }],
  menuEntries: [{ group: 'setup', order: 83, to: '/outbox', labelKey: 'nav.outbox', icon: 'EnvelopeClosedIcon', roles: ['admin'] }],
};
