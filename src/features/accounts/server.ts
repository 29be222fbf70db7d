import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { accountRoles, accountsNames } from './index.js';
import { accountRoutes } from './server/account-routes.js';
import { linkAccountsOnStart } from './server/link-on-start.js';
import { accounts as accountsMigration } from './server/migrations/002-accounts.js';
import { recordAccountRoutes } from './server/record-account-routes.js';
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
  clientNames: accountsNames,
  async routes(app: FastifyInstance) {
    await app.register(accountRoutes);
    await app.register(twoFactorRoutes);
    await app.register(recordAccountRoutes);
  },
  // Accounts invited before every juror account was linked get their record by e-mail.
  setup: linkAccountsOnStart,
  migrations: { '002-accounts': accountsMigration },
};

export { AccountsAdmin, type AccountsHost, type InviteInput } from './server/accounts-admin.js';
export { type DeclaredLink, declaredLink, type InviteOutcome, RecordAccounts } from './server/record-accounts.js';
