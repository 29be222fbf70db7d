import type { FastifyInstance } from 'fastify';
import { linkAccountsByEmail } from './account-links.js';

/**
 * Start-up step (after the entity tables are synced and seeded): links every account of a linked
 * role that has no link yet to the record with its e-mail (`linkAccountsByEmail`), so a juror
 * invited before accounts were always linked can use the portal. Logs how many it linked.
 */
export async function linkAccountsOnStart(app: FastifyInstance): Promise<void> {
  const linked = await linkAccountsByEmail(app.auth.db, app.entities);
  if (linked.length > 0) app.log.info({ accounts: linked }, `Linked ${linked.length} account(s) to the record with their e-mail.`);
}
