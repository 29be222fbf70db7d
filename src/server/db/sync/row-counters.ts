import { type Kysely, sql } from 'kysely';
import { ROW_COUNTS_TABLE } from '../../operations/count.js';

/**
 * The row-count table and its statement-level trigger functions (one update per statement, so a
 * bulk insert of a million rows costs one counter update). Idempotent.
 */
export async function ensureRowCounterFunctions(db: Kysely<any>): Promise<void> {
  await sql`create table if not exists ${sql.table(ROW_COUNTS_TABLE)} (
    table_name text primary key,
    row_count bigint not null
  )`.execute(db);
  const bodies = {
    insert: `update ${ROW_COUNTS_TABLE} set row_count = row_count + (select count(*) from new_rows) where table_name = TG_TABLE_NAME;`,
    delete: `update ${ROW_COUNTS_TABLE} set row_count = row_count - (select count(*) from old_rows) where table_name = TG_TABLE_NAME;`,
    truncate: `update ${ROW_COUNTS_TABLE} set row_count = 0 where table_name = TG_TABLE_NAME;`,
  };
  for (const [event, body] of Object.entries(bodies)) {
    await sql
      .raw(`create or replace function entity_row_counts_${event}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`)
      .execute(db);
  }
}

/** Trigger names per table, so the sync can tell which tables still need them. */
export const counterTriggerNames = (table: string) => [`tg_${table}_count_ins`, `tg_${table}_count_del`, `tg_${table}_count_trunc`].map((n) => n.slice(0, 63));

/**
 * Installs a table's counting triggers and seeds its counter with the current exact count. The
 * trigger creation locks the table against writes until the sync commits, so no row is missed.
 */
export async function installRowCounter(db: Kysely<any>, table: string): Promise<void> {
  const [ins, del, trunc] = counterTriggerNames(table) as [string, string, string];
  const t = sql.table(table);
  await sql`drop trigger if exists ${sql.id(ins)} on ${t}`.execute(db);
  await sql`drop trigger if exists ${sql.id(del)} on ${t}`.execute(db);
  await sql`drop trigger if exists ${sql.id(trunc)} on ${t}`.execute(db);
  await sql`create trigger ${sql.id(ins)} after insert on ${t} referencing new table as new_rows for each statement execute function entity_row_counts_insert()`.execute(
    db,
  );
  await sql`create trigger ${sql.id(del)} after delete on ${t} referencing old table as old_rows for each statement execute function entity_row_counts_delete()`.execute(
    db,
  );
  await sql`create trigger ${sql.id(trunc)} after truncate on ${t} for each statement execute function entity_row_counts_truncate()`.execute(db);
  await sql`insert into ${sql.table(ROW_COUNTS_TABLE)} (table_name, row_count) values (${table}, (select count(*) from ${t}))
    on conflict (table_name) do update set row_count = excluded.row_count`.execute(db);
}
