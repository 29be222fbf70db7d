import { registerExtension } from '../../engine/registry/index.js';
import { applicationNames } from '../extension-names.js';
import { screens } from '../screens/index.js';
import { RatingStarsCell, ratingOf } from '../../features/judging/client/rating-stars-cell.js';

/**
 * The application's client slot: its own cells, widgets, filter inputs, row actions and screens,
 * registered through the engine's one registration call, as the engine registers its own. The
 * call is typed by `../extension-names.ts` (what the server accepts in descriptors): each name
 * there needs its part here, and no part may come without its name. The app loads this module
 * before it builds its routes.
 */
registerExtension<typeof applicationNames>({
  cells: {
    // A rating out of five as stars; a value outside 0-5 shows as empty.
    'rating-stars': { component: RatingStarsCell, isEmpty: (value) => ratingOf(value) === null },
  },
  widgets: {},
  filterInputs: {},
  rowActions: {},
  screens,
});
