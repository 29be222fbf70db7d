import type { ServerFeature } from '../../server/index.js';
import { onExamFinal, provideShortlistStates } from '../judging/server.js';
import { resultsTables } from './server/migrations/005-results.js';
import { shortlistStatesOf } from './server/results.service.js';
import { lockResultsOnExamFinal } from './server/results-actions.service.js';
import { resultsRoutes } from './server/results-routes.js';

/** Results' server face: aggregation, shortlist, awards, finalising and exports. */
export const resultsServer: ServerFeature = {
  name: 'results',
  routes: resultsRoutes,
  migrations: { '005-results': resultsTables },
};

// Results react to judging: an exam moved to `final` by judging's status workflow stores its results
// snapshot (as finalise does), and judging's dashboard reads the shortlist states from results.
onExamFinal(lockResultsOnExamFinal);
provideShortlistStates(shortlistStatesOf);
