import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { accountRoles } from './index.js';
import { accountRoutes } from './server/account-routes.js';
import { accounts as accountsMigration } from './server/migrations/002-accounts.js';
import { twoFactorRoutes } from './server/two-factor-routes.js';

/**
 * Accounts' server face: the admin and juror roles, the admins' account management (invitations,
 * registering, roles and links, disabling), two-factor enrolment from the profile, and the
 * migration that added the invitation, two-factor and link columns.
 */
export const accountsServer: ServerFeature = {
  name: 'accounts',
  // The server checks every route's and descriptor's roles against the declared ones at start-up.
  roles: accountRoles,
  async routes(app: FastifyInstance) {
    await app.register(accountRoutes);
    await app.register(twoFactorRoutes);
  },
  migrations: { '002-accounts': accountsMigration },
};

export { AccountsAdmin, type AccountsHost, type InviteInput } from './server/accounts-admin.js';
