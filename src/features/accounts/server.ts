import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { accountRoutes } from './server/account-routes.js';
import { twoFactorRoutes } from './server/two-factor-routes.js';

/** Accounts' server face: the admins' account management, invitations and two-factor enrolment. */
export const accountsServer: ServerFeature = {
  name: 'accounts',
  async routes(app: FastifyInstance) {
    await app.register(accountRoutes);
    await app.register(twoFactorRoutes);
  },
};

export { AccountsAdmin } from './server/accounts-admin.js';
export { juryRecordExists } from './server/jury-link.js';
