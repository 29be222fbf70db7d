import type { ServerFeature } from '../../server/index.js';
import { onExamFinal, provideShortlistedEntries, provideShortlistStates } from '../judging/server.js';
import { resultsTables } from './server/migrations/005-results.js';
import { shortlistStatesOf } from './server/results.service.js';
import { lockResultsOnExamFinal } from './server/results-actions.service.js';
import { resultsRoutes } from './server/results-routes.js';
import { shortlistedEntriesOf } from './server/shortlisted-entries.js';
import { resultsNames } from './shared/extension-names.js';

export { finaliseExam } from './server/results-actions.service.js';

/** Results' server face: aggregation, shortlist, awards, finalising and exports. */
export const resultsServer: ServerFeature = {
  name: 'results',
  routes: resultsRoutes,
  clientNames: resultsNames,
  migrations: { '005-results': resultsTables },
};

// Results react to judging: an exam moved to `final` by judging's status workflow stores its results
// snapshot (as finalise does), and judging's dashboard reads the shortlist states from results.
onExamFinal(lockResultsOnExamFinal);
provideShortlistStates(shortlistStatesOf);
// A later round's exam takes exactly the entries shortlisted into it (judging's eligibility).
provideShortlistedEntries(shortlistedEntriesOf);
