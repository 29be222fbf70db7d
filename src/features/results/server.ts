import type { ServerFeature } from '../../server/index.js';
import { onExamFinal } from '../judging/server.js';
import { lockResultsOnExamFinal } from './server/results-actions.service.js';
import { resultsTables } from './server/migrations/005-results.js';
import { resultsRoutes } from './server/results-routes.js';

/** Results' server face: aggregation, shortlist, awards, finalising and exports. */
export const resultsServer: ServerFeature = {
  name: 'results',
  routes: resultsRoutes,
  migrations: { '005-results': resultsTables },
};

// An exam moved to `final` by judging's status workflow stores its results snapshot, as finalise does.
onExamFinal(lockResultsOnExamFinal);
