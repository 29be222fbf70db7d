import { type Kysely, sql } from 'kysely';
import type { EntityRegistry } from '../../../server/index.js';

/**
 * Whether a jury record exists, for linking a juror's account to it (`users.jury_id`). The juries
 * table is an entity table synced after the system migrations, so the link is checked here on
 * write rather than by a foreign key. False when no `jury` entity is loaded.
 */
export async function juryRecordExists(db: Kysely<any>, registry: EntityRegistry, id: number): Promise<boolean> {
  const table = registry.byName.get('jury')?.descriptor.table;
  if (!table) return false;
  const row = await sql<{ found: number }>`select 1 as found from ${sql.table(table)} where id = ${id}`.execute(db);
  return row.rows.length > 0;
}
