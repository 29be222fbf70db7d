import { type Kysely, type Migration, Migrator } from 'kysely';
import { systemTables } from './migrations/001-system-tables.js';
import { accounts } from './migrations/002-accounts.js';
import { judging } from '../../features/judging/server/migrations/004-judging.js';
import { resultsTables } from '../../features/results/server/migrations/005-results.js';
import { history } from './migrations/006-history.js';
import { dataioTables } from '../../features/dataio/server/migrations/007-dataio.js';
import { dataioJobState } from '../../features/dataio/server/migrations/008-dataio-job-state.js';

/** The system tables' migrations, in the order they run. Append; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '001-system-tables': systemTables,
  '002-accounts': accounts,
  '004-judging': judging,
  '005-results': resultsTables,
  '006-history': history,
  '007-dataio': dataioTables,
  '008-dataio-job-state': dataioJobState,
};

/** Brings the system tables up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Migrations land from parallel branches (a 003 may arrive after a database ran 005): each is
  // independent of the others' tables, so a missing one runs whatever its number.
  const migrator = new Migrator({ db, allowUnorderedMigrations: true, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
