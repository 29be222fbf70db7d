import { type Kysely, sql } from 'kysely';
import { DATA_VERSIONS_TABLE } from '../operations/list-cache.js';

/** Kysely's own bookkeeping tables: recreated by migrations, never dumped or restored. */
export const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

/**
 * Tables a backup neither writes nor empties nor restores: the migration bookkeeping and the data
 * versions, which must only grow (a restore raises them instead: see `restoreBackup`).
 */
const NOT_BACKED_UP = [...MIGRATION_TABLES, DATA_VERSIONS_TABLE];

/**
 * Tables a backup leaves out because they are live secrets or passing state, not data: sessions
 * (a backup must not let anyone resume a session), password-reset tokens, throttle counters and
 * import jobs (uploaded tables and failed-row reports: passing state that may hold people's data).
 * A restore empties them (everyone signs in again) and skips their rows in older backups.
 */
export const SECRET_TABLES = ['sessions', 'password_resets', 'throttles', 'import_jobs', 'import_job_parts'];

/**
 * Rows a backup leaves out and a restore keeps as the target has them: the signing key, which
 * stays with its server (a restored database keeps working with the key of the server it is
 * restored onto, and a stolen backup signs nothing).
 */
export const SECRET_SETTINGS = ['jwt_secret'];

/** A column as the catalog describes it. */
export interface CatalogColumn {
  name: string;
  /** `format_type()` text, e.g. `timestamp with time zone`, `character varying(100)`, `text[]`. */
  type: string;
  /** `pg_type.typname` of the column type (`int4`, `jsonb`, `_text` for a text array). */
  typname: string;
}

/** A base table in schema `public`, with what dump and restore need to know about it. */
export interface CatalogTable {
  name: string;
  columns: CatalogColumn[];
  /** Primary-key columns in key order; empty when the table has none (then `ctid` orders reads). */
  primaryKey: string[];
  /** Tables this one references through foreign keys (itself excluded). */
  references: string[];
}

/**
 * Lists every base table of schema `public` except Kysely's migration tables, sorted so that a
 * table comes after every table it references (parents first). Works the same on PGlite and
 * PostgreSQL because it reads `pg_catalog` only. Generated columns are left out: they cannot be
 * written and are recomputed on restore.
 */
export async function readCatalog(db: Kysely<any>): Promise<CatalogTable[]> {
  const columns = await sql<{ table: string; column: string; type: string; typname: string }>`
    select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type", t.typname as "typname"
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    join pg_type t on t.oid = a.atttypid
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname, a.attnum`.execute(db);
  const keys = await sql<{ table: string; column: string }>`
    select c.relname as "table", a.attname as "column"
    from pg_index i
    join pg_class c on c.oid = i.indrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
    where i.indisprimary and n.nspname = 'public'
    order by c.relname, array_position(i.indkey::int2[], a.attnum)`.execute(db);
  const foreign = await sql<{ child: string; parent: string }>`
    select distinct c.relname as "child", p.relname as "parent"
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = 'public'`.execute(db);

  const tables = new Map<string, CatalogTable>();
  for (const row of columns.rows) {
    if (NOT_BACKED_UP.includes(row.table)) continue;
    let table = tables.get(row.table);
    if (!table) tables.set(row.table, (table = { name: row.table, columns: [], primaryKey: [], references: [] }));
    table.columns.push({ name: row.column, type: row.type, typname: row.typname });
  }
  for (const row of keys.rows) tables.get(row.table)?.primaryKey.push(row.column);
  for (const row of foreign.rows) {
    const table = tables.get(row.child);
    if (table && row.parent !== row.child && tables.has(row.parent)) table.references.push(row.parent);
  }
  return orderByDependencies([...tables.values()]);
}

/**
 * Orders tables parents first. A reference cycle (rare; only possible with nullable or deferred
 * keys) cannot be ordered: its tables follow in name order and the database reports the violation.
 */
export function orderByDependencies<T extends { name: string; references: string[] }>(tables: T[]): T[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const ordered: T[] = [];
  const visit = (table: T) => {
    if (done.has(table.name) || visiting.has(table.name)) return;
    visiting.add(table.name);
    for (const parent of [...table.references].sort()) {
      const next = byName.get(parent);
      if (next) visit(next);
    }
    visiting.delete(table.name);
    done.add(table.name);
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table);
  return ordered;
}

/** The names of the migrations applied to this database, oldest first; empty before any ran. */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const exists = await sql<{ found: boolean }>`select to_regclass('public.kysely_migration') is not null as "found"`.execute(db);
  if (!exists.rows[0]?.found) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by timestamp, name`.execute(db);
  return rows.rows.map((r) => r.name);
}
