import type { ClientExtension } from '../../engine/index.js';
import { RatingStarsCell, ratingOf } from './client/rating-stars-cell.js';
import type { judgingNames } from './shared/extension-names.js';

/** Judging's client face: the rating cell and the judging screens, each its own chunk. */
export const judgingClient: ClientExtension<typeof judgingNames> = {
  cells: {
    // A rating out of five as stars; a value outside 0-5 shows as empty.
    'rating-stars': { component: RatingStarsCell, isEmpty: (value) => ratingOf(value) === null },
  },
  widgets: {},
  filterInputs: {},
  rowActions: {},
  screens: [
    { path: '/jury', roles: ['juror', 'admin'], load: () => import('./client/jury-portal-screen.js') },
    { path: '/exam-judging', roles: ['admin'], load: () => import('./client/exam-judging-screen.js') },
    { path: '/exam-judging/:id', roles: ['admin'], load: () => import('./client/exam-judging-screen.js') },
    { path: '/manage-applicant/:id/decide', roles: ['admin'], load: () => import('./client/applicant-decision-screen.js') },
  ],
};
