import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { entrantRoles } from './index.js';
import { entrantAccountsOnStart } from './server/account-sync.js';
import { bulkReviewRoutes } from './server/bulk-review-routes.js';
import { entrantsMigration } from './server/migrations/019-entrants.js';
import { myEntriesRoutes } from './server/my-entries-routes.js';

/**
 * Entrants' server face: the `entrant` role (a submittor's account, linked through
 * `users.customer_id`, kept by a trigger on the submittors' table), the entrant portal's API
 * (`/api/my/contests`), the console's bulk review of submitted entries, and the migration adding
 * the role and its link column.
 */
export const entrantsServer: ServerFeature = {
  name: 'entrants',
  roles: entrantRoles,
  async routes(app: FastifyInstance) {
    await app.register(myEntriesRoutes);
    await app.register(bulkReviewRoutes);
  },
  // After the entity tables are synced: the accounts' trigger, and an account for every submittor without one.
  setup: entrantAccountsOnStart,
  migrations: { '019-entrants': entrantsMigration },
};
