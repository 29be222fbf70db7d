import type { ClientExtension } from '../../engine/index.js';
import { entrantRoles } from './index.js';

/**
 * Entrants' client face: the `entrant` role (as its server face declares it), the entrant portal's
 * screens (`/entries`, `/entries/new`, `/entries/:id`, each its own chunk) and the entrant's menu
 * (their entries and their profile), and the console's bulk review of submitted entries
 * (`/review-entries`, admins) with its menu entry in the contest group.
 */
export const entrantsClient: ClientExtension = {
  roles: entrantRoles,
  cells: {},
  widgets: {},
  filterInputs: {},
  rowActions: {},
  screens: [
    { path: '/entries', roles: ['entrant'], load: () => import('./client/entries-screen.js') },
    { path: '/entries/new', roles: ['entrant'], load: () => import('./client/new-entry-screen.js') },
    { path: '/entries/:id', roles: ['entrant'], load: () => import('./client/entry-screen.js') },
    { path: '/review-entries', roles: ['admin'], load: () => import('./client/review-screen.js') },
  ],
  menuGroups: [{ id: 'entries', order: 5 }],
  menuEntries: [
    { group: 'entries', order: 10, to: '/entries', labelKey: 'entrants.list.title', icon: 'ArchiveIcon', roles: ['entrant'] },
    { group: 'entries', order: 20, to: '/profile', labelKey: 'nav.profile', icon: 'TokensIcon', roles: ['entrant'] },
    { group: 'contest', order: 12, to: '/review-entries', labelKey: 'entrants.review.title', icon: 'FileTextIcon', roles: ['admin'] },
  ],
};
