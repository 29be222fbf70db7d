import type { ClientExtension } from '../../engine/index.js';

/** Notifications' client face: the header's bell (admins), its own chunk. */
export const notificationsClient: ClientExtension = {
  headerItems: [{ id: 'notifications', order: 10, roles: ['admin'], load: () => import('./client/notifications-popover.js') }],
};
