import { type Kysely, type Migration, Migrator } from 'kysely';
import { featureMigrations } from '../features.js';
import { systemTables } from './migrations/001-system-tables.js';
import { history } from './migrations/006-history.js';
import { scheduler } from './migrations/018-scheduler.js';

/**
 * The server's own system tables' migrations. Append; never edit one that has shipped. (The
 * invitation and two-factor columns and `recovery_codes` came with `002-accounts`, which the accounts
 * feature carries under the same name: it also holds that feature's role constraint and link column.)
 */
const coreMigrations: Record<string, Migration> = {
  '001-system-tables': systemTables,
  '006-history': history,
  '018-scheduler': scheduler,
};

/** Every migration, the server's and the registered features' (see `../features.ts`), by name in the order they run. */
export function allMigrations(): Record<string, Migration> {
  const features = featureMigrations();
  const clash = Object.keys(features).find((name) => Object.hasOwn(coreMigrations, name));
  if (clash) throw new Error(`The migration "${clash}" is both the server's and a feature's.`);
  const all: Record<string, Migration> = { ...coreMigrations, ...features };
  return Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((name) => [name, all[name]!]),
  );
}

/** Brings the system tables up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Migrations land from parallel branches (a 003 may arrive after a database ran 005): each is
  // independent of the others' tables, so a missing one runs whatever its number.
  const migrator = new Migrator({ db, allowUnorderedMigrations: true, provider: { getMigrations: async () => allMigrations() } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
