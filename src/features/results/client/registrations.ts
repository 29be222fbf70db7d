import type { ClientExtension } from '../../../engine/index.js';
import type { resultsNames } from '../shared/extension-names.js';
import { GradeScoresCell, gradeScoresOf } from './grade-scores-cell.js';

/**
 * Results' cell: code only signed-in screens run, loaded from the client face's `lazy` (a chunk of
 * its own, not the sign-in page's).
 */
const resultsRegistrations: ClientExtension<typeof resultsNames> = {
  // A grade's per-criterion scores with the criteria's labels, its remarks and reopen reason (the grade's detail).
  cells: { 'grade-scores': { component: GradeScoresCell, isEmpty: (value) => gradeScoresOf(value) === null } },
  widgets: {},
  filterInputs: {},
  rowActions: {},
};
export default resultsRegistrations;
