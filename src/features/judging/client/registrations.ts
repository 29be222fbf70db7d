import type { ClientExtension } from '../../../engine/index.js';
import type { judgingNames } from '../shared/extension-names.js';
import { ContestReviewCell } from './contest-review-cell.js';
import { CriteriaEditorWidget } from './criteria-editor-widget.js';
import { CriteriaTableCell, criteriaOf } from './criteria-table-cell.js';
import { examDeleteImpact } from './exam-delete-impact.js';
import { JurorConflictsCell } from './juror-conflicts-cell.js';
import { RatingStarsCell, ratingOf } from './rating-stars-cell.js';

/**
 * Judging's cells, widget and delete warning: code only signed-in screens run, loaded from the
 * client face's `lazy` (a chunk of its own, not the sign-in page's).
 */
const judgingRegistrations: ClientExtension<typeof judgingNames> = {
  cells: {
    // A rating out of five as stars; a value outside 0-5 shows as empty.
    'rating-stars': { component: RatingStarsCell, isEmpty: (value) => ratingOf(value) === null },
    // An exam's criteria as a table (label, key, weight and share, maximum, guidance).
    'criteria-table': { component: CriteriaTableCell, isEmpty: (value) => criteriaOf(value).length === 0 },
    // On a juror's detail page (its id's cell): their declared conflicts of interest, declared and withdrawn there.
    'juror-conflicts': { component: JurorConflictsCell, isEmpty: () => false },
    // On an entry's detail page (its status's cell): its review, approve or reject with a reason.
    'contest-review': { component: ContestReviewCell, isEmpty: () => false },
  },
  // The exam form's criteria: one labelled row per criterion, reorderable, the key from the label.
  widgets: { 'criteria-editor': CriteriaEditorWidget },
  filterInputs: {},
  // Deleting an exam with grades warns and names their count.
  deleteImpacts: { exam: examDeleteImpact },
  rowActions: {},
};
export default judgingRegistrations;
