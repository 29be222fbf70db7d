import { type Kysely, sql } from 'kysely';
import { DATA_VERSIONS_TABLE } from '../../operations/list-cache.js';

/**
 * The data-versions table and its statement-level trigger function: every insert, update, delete
 * or truncate of an entity table raises that table's version by one, in the same transaction, so
 * a reader that sees the new version also sees the change. Idempotent.
 */
export async function ensureDataVersionFunction(db: Kysely<any>): Promise<void> {
  await sql`create table if not exists ${sql.table(DATA_VERSIONS_TABLE)} (
    table_name text primary key,
    version bigint not null
  )`.execute(db);
  const t = DATA_VERSIONS_TABLE;
  await sql
    .raw(`create or replace function entity_data_versions_bump() returns trigger language plpgsql as $$ begin
  insert into ${t} as v (table_name, version) values (TG_TABLE_NAME, 1)
    on conflict (table_name) do update set version = v.version + 1;
  return null;
end $$`)
    .execute(db);
}

/** The two trigger names of a table (row changes, truncate). */
export const dataVersionTriggerNames = (table: string) => [`tg_${table}_ver`, `tg_${table}_ver_trunc`].map((n) => n.slice(0, 63));

/** Installs a table's version triggers and makes sure it has a version row. */
export async function installDataVersionTriggers(db: Kysely<any>, table: string): Promise<void> {
  const [change, truncate] = dataVersionTriggerNames(table) as [string, string];
  const t = sql.table(table);
  await sql`drop trigger if exists ${sql.id(change)} on ${t}`.execute(db);
  await sql`drop trigger if exists ${sql.id(truncate)} on ${t}`.execute(db);
  await sql`create trigger ${sql.id(change)} after insert or update or delete on ${t} for each statement execute function entity_data_versions_bump()`.execute(
    db,
  );
  await sql`create trigger ${sql.id(truncate)} after truncate on ${t} for each statement execute function entity_data_versions_bump()`.execute(db);
  await bumpDataVersions(db, [table]);
}

/**
 * Raises the versions of `tables` (all tables with a version when omitted): for changes made
 * with the triggers off (a restore) or to what a row means (a schema change), so no server reuses
 * a response read before them.
 */
export async function bumpDataVersions(db: Kysely<any>, tables?: readonly string[]): Promise<void> {
  if (tables === undefined) {
    await sql`update ${sql.table(DATA_VERSIONS_TABLE)} set version = version + 1`.execute(db);
    return;
  }
  for (const table of tables) {
    await sql`insert into ${sql.table(DATA_VERSIONS_TABLE)} as v (table_name, version) values (${table}, 1)
      on conflict (table_name) do update set version = v.version + 1`.execute(db);
  }
}

/**
 * Keeps a data version for a feature's own table (not an entity's, which the sync versions): its
 * writes raise it like an entity table's, so what is read from it can be kept per version. For a
 * feature's migration; idempotent.
 *
 * @example await versionFeatureTable(db, 'user_editions'); // in the migration that needs it
 */
export async function versionFeatureTable(db: Kysely<any>, table: string): Promise<void> {
  await ensureDataVersionFunction(db);
  await installDataVersionTriggers(db, table);
}
