import type { ClientExtension } from '../../engine/index.js';

/** Data I/O's client face: the import wizard (its own chunk) and its menu entry. */
export const dataioClient: ClientExtension = {
  screens: [{ path: '/import-data', roles: ['admin'], load: () => import('./client/import-screen.js') }],
  menuEntries: [{ group: 'overview', order: 20, to: '/import-data', labelKey: 'nav.importData', icon: 'UploadIcon', roles: ['admin'] }],
};
