import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { compoundParts, GROUP_COUNTS_TABLE } from '../../operations/count/group-counts.js';
import { type ManagedObject, objectName } from './desired-schema.js';

/**
 * The per-value counters table and the one trigger function that maintains it. The function is
 * generic: the trigger passes the counted columns as arguments, and the statement's transition
 * tables are aggregated per value, so a bulk insert of a million rows costs one grouped upsert
 * per column. Values are kept as text; NULLs are not counted. A compound entry (`edition_id+status`)
 * counts each combination, its value the parts' texts joined by {@link COMPOUND_SEPARATOR} (a row
 * with any part NULL is not counted). Idempotent.
 */
export async function ensureGroupCounterFunctions(db: Kysely<any>): Promise<void> {
  await sql`create table if not exists ${sql.table(GROUP_COUNTS_TABLE)} (
    table_name text not null,
    column_name text not null,
    value text not null,
    row_count bigint not null,
    primary key (table_name, column_name, value)
  )`.execute(db);
  const t = GROUP_COUNTS_TABLE;
  await sql
    .raw(`create or replace function entity_group_counts_apply() returns trigger language plpgsql as $$
declare col text; expr text; present text;
begin
  if TG_OP = 'TRUNCATE' then
    delete from ${t} where table_name = TG_TABLE_NAME;
    return null;
  end if;
  foreach col in array TG_ARGV loop
    select 'concat_ws(chr(31), ' || string_agg(format('%I::text', part), ', ' order by n) || ')',
           string_agg(format('%I is not null', part), ' and ' order by n)
      into expr, present from unnest(string_to_array(col, '+')) with ordinality as parts (part, n);
    if TG_OP in ('DELETE', 'UPDATE') then
      execute format('update ${t} g set row_count = g.row_count - s.n
        from (select %s as v, count(*) as n from old_rows where %s group by 1) s
        where g.table_name = %L and g.column_name = %L and g.value = s.v', expr, present, TG_TABLE_NAME, col);
    end if;
    if TG_OP in ('INSERT', 'UPDATE') then
      execute format('insert into ${t} as g (table_name, column_name, value, row_count)
        select %L, %L, v, n from (select %s as v, count(*) as n from new_rows where %s group by 1) s order by v
        on conflict (table_name, column_name, value) do update set row_count = g.row_count + excluded.row_count', TG_TABLE_NAME, col, expr, present);
    end if;
  end loop;
  return null;
end $$`)
    .execute(db);
}

/** The trigger names of a table for a set of counted columns; the hash changes with the columns. */
export function groupCounterTriggerNames(table: string, columns: readonly string[]): string[] {
  const hash = createHash('sha256').update(columns.join(',')).digest('hex').slice(0, 8);
  return ['ins', 'upd', 'del', 'trn'].map((op) => `${`tg_${table}`.slice(0, 40)}_gc_${op}_${hash}`);
}

/**
 * Makes a table's per-value counters match its descriptor: drops counter triggers for another
 * column set, installs the wanted ones, and recounts the table's values exactly. Run inside the
 * sync transaction, whose trigger DDL locks the table against writes, so no row is missed.
 */
export async function syncGroupCounters(db: Kysely<any>, entity: LoadedEntity, existingTriggers: readonly string[]): Promise<void> {
  const table = entity.descriptor.table;
  const columns = entity.descriptor.counts.groupBy;
  const wanted = columns.length ? groupCounterTriggerNames(table, columns) : [];
  const prefix = `${`tg_${table}`.slice(0, 40)}_gc_`;
  const stale = existingTriggers.filter((name) => name.startsWith(prefix) && !wanted.includes(name));
  if (stale.length === 0 && wanted.every((name) => existingTriggers.includes(name))) return;
  const t = sql.table(table);
  for (const name of [...stale, ...wanted]) await sql`drop trigger if exists ${sql.id(name)} on ${t}`.execute(db);
  await sql`delete from ${sql.table(GROUP_COUNTS_TABLE)} where table_name = ${table}`.execute(db);
  if (columns.length === 0) return;
  const args = sql.join(columns.map((column) => sql.lit(column)));
  const [ins, upd, del, trn] = wanted.map((name) => sql.id(name)) as [
    ReturnType<typeof sql.id>,
    ReturnType<typeof sql.id>,
    ReturnType<typeof sql.id>,
    ReturnType<typeof sql.id>,
  ];
  await sql`create trigger ${ins} after insert on ${t} referencing new table as new_rows for each statement execute function entity_group_counts_apply(${args})`.execute(
    db,
  );
  await sql`create trigger ${upd} after update on ${t} referencing old table as old_rows new table as new_rows for each statement execute function entity_group_counts_apply(${args})`.execute(
    db,
  );
  await sql`create trigger ${del} after delete on ${t} referencing old table as old_rows for each statement execute function entity_group_counts_apply(${args})`.execute(
    db,
  );
  await sql`create trigger ${trn} after truncate on ${t} for each statement execute function entity_group_counts_apply()`.execute(db);
  for (const column of columns) {
    const parts = compoundParts(column);
    const value = sql`concat_ws(chr(31), ${sql.join(parts.map((part) => sql`${sql.ref(part)}::text`))})`;
    const present = sql.join(
      parts.map((part) => sql`${sql.ref(part)} is not null`),
      sql` and `,
    );
    await sql`insert into ${sql.table(GROUP_COUNTS_TABLE)} (table_name, column_name, value, row_count)
      select ${table}, ${column}, ${value}, count(*) from ${t} where ${present} group by 3`.execute(db);
  }
  await sql`analyze ${sql.table(GROUP_COUNTS_TABLE)}`.execute(db);
}

/**
 * Covering indexes for lists filtered by a counted field: `(field, sort, id)` for every allowed
 * sort (just `(field, id)` when the sort is the field or id), so any page of a filtered, sorted
 * list is an index-only scan plus a primary-key lookup of its rows. A combination gets
 * `(a, b, sort, id)`: the customer's contests in the current edition, in any order, from one index.
 */
export function groupCountIndexes(entity: LoadedEntity): ManagedObject[] {
  const d = entity.descriptor;
  const objects: ManagedObject[] = [];
  for (const entry of d.counts.groupBy) {
    const parts = compoundParts(entry);
    for (const sort of new Set([...d.list.sorts, d.list.defaultSort.field, 'id'])) {
      const columns = parts.includes(sort) || sort === 'id' ? [...parts, 'id'] : [...parts, sort, 'id'];
      const name = objectName('ix_', d.table, columns, `${d.table}(${columns.join(',')}) btree`);
      if (objects.some((o) => o.name === name)) continue;
      objects.push({
        kind: 'index',
        table: d.table,
        name,
        create: sql`create index ${sql.id(name)} on ${sql.table(d.table)} (${sql.join(columns.map((c) => sql.ref(c)))})`,
      });
    }
  }
  return objects;
}
