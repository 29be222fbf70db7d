import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.js';
import type { SystemTables } from '../db/system-tables.js';
import { writeAudit } from './audit.js';
import { generatePassword, hashPassword } from './password.js';
import { countUsers, insertUser } from './users.js';

/**
 * On an empty users table, creates the first admin from `ADMIN_EMAIL` / `ADMIN_PASSWORD` (or a
 * generated password) and returns the lines to print after listening. Two servers starting at
 * once on one PostgreSQL cannot both create it: the insert yields on the unique e-mail.
 */
export async function ensureFirstAdmin(db: Kysely<SystemTables>, config: Pick<AppConfig, 'adminEmail' | 'adminPassword'>): Promise<string[]> {
  const existing = `Sign in with the admin account (${config.adminEmail} unless it has been changed).`;
  if ((await countUsers(db)) > 0) return [existing];

  const password = config.adminPassword ?? generatePassword();
  const created = await insertUser(db, {
    email: config.adminEmail,
    name: 'Administrator',
    passwordHash: await hashPassword(password),
  });
  if (!created) return [existing];
  await writeAudit(db, { action: 'auth.first_admin', userId: created.id, details: { generatedPassword: !config.adminPassword } });
  return config.adminPassword
    ? [`Created the first admin: sign in as ${created.email} with the password from ADMIN_PASSWORD.`]
    : [`Created the first admin: sign in as ${created.email} with password ${password}`, '(shown once: change it on the Profile page).'];
}
