import type { ClientExtension } from '../../engine/index.js';

/** Editions' client face: the header's current-edition switcher and archived banner (admins), its own chunk. */
export const editionsClient: ClientExtension = {
  headerItems: [{ id: 'edition-switcher', order: 5, roles: ['admin'], load: () => import('./client/edition-switcher.js') }],
};
