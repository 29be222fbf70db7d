import { type Kysely, sql } from 'kysely';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { ensureGroupCounterFunctions, syncGroupCounters } from './counters.js';
import { bumpDataVersions, dataVersionTriggerNames, ensureDataVersionFunction, installDataVersionTriggers } from './data-versions.js';
import { type DesiredTable, desiredTable, MANAGED_PREFIXES } from './desired-schema.js';
import { managedObjects } from './managed-objects.js';
import { counterTriggerNames, ensureRowCounterFunctions, installRowCounter } from './row-counters.js';

/** A difference the sync will not apply because it would lose data; start-up stops with it. */
export class SchemaSyncError extends Error {
  override name = 'SchemaSyncError';
  constructor(readonly problems: string[]) {
    super(
      `The database tables do not match the entity schemas, and fixing that would lose data:\n  - ${problems.join('\n  - ')}\nNothing was changed. Restore the schema, or migrate the column by hand (rename or copy the data), then start again.`,
    );
  }
}

/** What the sync did, for the start-up log. */
export interface SyncReport {
  createdTables: string[];
  addedColumns: string[];
  createdObjects: string[];
  droppedObjects: string[];
}

interface ExistingColumn {
  table_name: string;
  column_name: string;
  data_type: string;
}

const LOCK_KEY = 7_301_947_221;

async function hasRows(db: Kysely<any>, table: string): Promise<boolean> {
  const result = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(db);
  return result.rows.length > 0;
}

/**
 * Creates each entity's table, or adds the columns its schema gained, and keeps the managed
 * constraints, indexes and row-count triggers in line with the schemas and descriptors — all in
 * one transaction, under an advisory lock so two servers starting together do not race. A
 * dropped or retyped column is never applied: it throws {@link SchemaSyncError} naming each one,
 * before anything changes.
 */
export async function syncEntityTables(db: Kysely<any>, entities: readonly LoadedEntity[]): Promise<SyncReport> {
  const report: SyncReport = { createdTables: [], addedColumns: [], createdObjects: [], droppedObjects: [] };
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    const desired = entities.map(desiredTable);
    const tables = desired.map((t) => t.table);
    const existing = tables.length
      ? (
          await sql<ExistingColumn>`select table_name, column_name, data_type from information_schema.columns
            where table_schema = current_schema() and table_name in (${sql.join(tables)})`.execute(trx)
        ).rows
      : [];
    const columnsOf = (table: string) => new Map(existing.filter((c) => c.table_name === table).map((c) => [c.column_name, c.data_type]));

    const problems: string[] = [];
    const additions: Array<{ table: DesiredTable; column: DesiredTable['columns'][number] }> = [];
    for (const table of desired) {
      const current = columnsOf(table.table);
      if (current.size === 0) continue;
      const file = `${table.entity.descriptor.schema}.schema.json`;
      for (const [name, dataType] of current) {
        const wanted = table.columns.find((c) => c.name === name);
        if (!wanted) {
          problems.push(
            `entity "${table.entity.descriptor.name}": column "${name}" (${dataType}) of table "${table.table}" is no longer in ${file}; dropping it is not done automatically`,
          );
        } else if (wanted.dataType !== dataType) {
          problems.push(
            `entity "${table.entity.descriptor.name}": column "${name}" of table "${table.table}" is ${dataType} but ${file} now makes it ${wanted.dataType}; retyping is not done automatically`,
          );
        }
      }
      for (const column of table.columns) {
        if (current.has(column.name)) continue;
        if (column.notNull && !column.default && (await hasRows(trx, table.table))) {
          problems.push(
            `entity "${table.entity.descriptor.name}": new required column "${column.name}" needs a "default" in ${file}, because table "${table.table}" already has rows`,
          );
        }
        additions.push({ table, column });
      }
    }
    if (problems.length > 0) throw new SchemaSyncError(problems);

    await ensureRowCounterFunctions(trx);
    for (const table of desired) {
      if (columnsOf(table.table).size > 0) continue;
      let create = trx.schema.createTable(table.table);
      for (const column of table.columns) {
        create = create.addColumn(column.name, sql.raw(column.sqlType), (c) => {
          let col = column.serial ? c.primaryKey() : c;
          if (column.notNull && !column.serial) col = col.notNull();
          if (column.default) col = col.defaultTo(column.default);
          return col;
        });
      }
      await create.execute();
      report.createdTables.push(table.table);
    }
    for (const { table, column } of additions) {
      await trx.schema
        .alterTable(table.table)
        .addColumn(column.name, sql.raw(column.sqlType), (c) => {
          let col = column.notNull ? c.notNull() : c;
          if (column.default) col = col.defaultTo(column.default);
          return col;
        })
        .execute();
      report.addedColumns.push(`${table.table}.${column.name}`);
    }

    await syncManagedObjects(trx, entities, tables, report);

    const triggers = (
      await sql<{ tgname: string }>`select t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not t.tgisinternal`.execute(trx)
    ).rows.map((r) => r.tgname);
    for (const table of tables) {
      if (!counterTriggerNames(table).every((name) => triggers.includes(name))) await installRowCounter(trx, table);
    }
    await ensureGroupCounterFunctions(trx);
    for (const entity of entities) await syncGroupCounters(trx, entity, triggers);
    await ensureDataVersionFunction(trx);
    for (const table of tables) {
      if (!dataVersionTriggerNames(table).every((name) => triggers.includes(name))) await installDataVersionTriggers(trx, table);
    }
    // A new column's default changes every row without firing a trigger: no cached list may outlive it.
    const widened = [...new Set(report.addedColumns.map((name) => name.split('.')[0]!))];
    if (widened.length > 0) await bumpDataVersions(trx, widened);
  });
  return report;
}

async function syncManagedObjects(trx: Kysely<any>, entities: readonly LoadedEntity[], tables: string[], report: SyncReport) {
  const wanted = managedObjects(entities);
  const constraints = (
    await sql<{ name: string; table: string }>`select con.conname as name, c.relname as table from pg_constraint con
      join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema()`.execute(trx)
  ).rows;
  const indexes = (
    await sql<{ name: string; table: string }>`select indexname as name, tablename as table from pg_indexes
      where schemaname = current_schema()`.execute(trx)
  ).rows;
  const isManaged = (name: string) => MANAGED_PREFIXES.some((prefix) => name.startsWith(prefix));
  const wantedNames = new Set(wanted.map((o) => o.name));

  // Drop what is no longer wanted first: foreign keys before the indexes and uniques they may use.
  const stale = [
    ...constraints.filter((c) => tables.includes(c.table) && isManaged(c.name) && !wantedNames.has(c.name)).map((c) => ({ ...c, kind: 'constraint' as const })),
    ...indexes
      .filter((i) => tables.includes(i.table) && isManaged(i.name) && !wantedNames.has(i.name) && !constraints.some((c) => c.name === i.name))
      .map((i) => ({ ...i, kind: 'index' as const })),
  ].sort((a, b) => Number(b.name.startsWith('fk_')) - Number(a.name.startsWith('fk_')));
  for (const object of stale) {
    if (object.kind === 'constraint') await sql`alter table ${sql.table(object.table)} drop constraint ${sql.id(object.name)}`.execute(trx);
    else await sql`drop index ${sql.id(object.name)}`.execute(trx);
    report.droppedObjects.push(object.name);
  }
  const present = new Set([...constraints.map((c) => c.name), ...indexes.map((i) => i.name)]);
  for (const object of [...wanted.filter((o) => !o.late), ...wanted.filter((o) => o.late)]) {
    if (present.has(object.name)) continue;
    await object.create.execute(trx);
    report.createdObjects.push(object.name);
  }
}
