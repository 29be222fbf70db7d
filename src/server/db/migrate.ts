import { type Kysely, type Migration, Migrator } from 'kysely';
import { systemTables } from './migrations/001-system-tables.js';
import { dataioTables } from './migrations/007-dataio.js';

/** The system tables' migrations, in the order they run. Append; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '001-system-tables': systemTables,
  '007-dataio': dataioTables,
};

/** Brings the system tables up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
