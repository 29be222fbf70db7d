import type { ServerFeature } from '../../server/index.js';
import { historyRoutes } from './server/history-routes.js';

/** History's server face: the audit log, a record's history, the trash and merges. */
export const historyServer: ServerFeature = { name: 'history', routes: historyRoutes };
