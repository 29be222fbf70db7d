import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { PRODUCT_NAME } from '../../shared/product.js';
import type { Database } from '../db/kysely.js';
import { bumpDataVersions } from '../db/sync/data-versions.js';
import { GROUP_COUNTS_TABLE } from '../operations/count/group-counts.js';
import { ROW_COUNTS_TABLE } from '../operations/count.js';
import { DATA_VERSIONS_TABLE } from '../operations/list-cache.js';
import { BACKUP_FORMAT, BACKUP_VERSION, BackupError, type BackupHeader, type BackupSummary } from './backup-format.js';
import { appliedMigrations, type CatalogColumn, type CatalogTable, readCatalog, SECRET_SETTINGS, SECRET_TABLES } from './catalog.js';

export interface RestoreOptions {
  /** Replace a target that already has data (its tables are truncated first). */
  force?: boolean;
  /** Rows per INSERT statement (fewer when a table has many columns). */
  batchSize?: number;
  /** Abandons the restore (rolled back) at the next row. */
  signal?: AbortSignal;
}

/**
 * Reads a backup file line by line, in time linear in its size: each decoded chunk is searched
 * once, from where the last line ended, and the pieces of a line that spans chunks are joined once
 * when its end arrives (appending to one string and searching it again at every chunk made a line
 * of n bytes cost n²/chunk: 25 s for a 22 MB line). Iterating the gunzip stream itself (not
 * readline) makes a corrupt or cut gzip stream reject the loop, where it can be reported.
 */
export async function* readBackupLines(file: string): AsyncGenerator<string> {
  if (!fs.existsSync(file)) throw new BackupError(`The backup file ${file} does not exist.`);
  const gunzip = fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(zlib.createGunzip({ chunkSize: 1 << 20 }));
  const decoder = new StringDecoder('utf8');
  let pieces: string[] = [];
  try {
    for await (const chunk of gunzip) {
      const text = decoder.write(chunk as Buffer);
      let start = 0;
      for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
        let line = text.slice(start, newline);
        if (pieces.length > 0) {
          pieces.push(line);
          line = pieces.join('');
          pieces = [];
        }
        start = newline + 1;
        yield line;
      }
      if (start < text.length) pieces.push(start === 0 ? text : text.slice(start));
    }
  } catch (error) {
    throw new BackupError(`The backup file ${file} is damaged (${(error as Error).message}); nothing was restored.`);
  } finally {
    gunzip.destroy();
  }
  pieces.push(decoder.end());
  const rest = pieces.join('');
  if (rest) yield rest;
}

function parseHeader(line: string | undefined, file: string): BackupHeader {
  let header: Partial<BackupHeader> | undefined;
  try {
    header = line ? (JSON.parse(line) as Partial<BackupHeader>) : undefined;
  } catch {
    header = undefined;
  }
  if (!header || header.format !== BACKUP_FORMAT || !Array.isArray(header.tables)) {
    throw new BackupError(`${file} is not an ${PRODUCT_NAME} backup (made by npm run backup).`);
  }
  if (header.version !== BACKUP_VERSION) {
    throw new BackupError(`${file} has backup format version ${header.version}; this version of ${PRODUCT_NAME} reads version ${BACKUP_VERSION}.`);
  }
  return header as BackupHeader;
}

/** Checks that every table and column of the backup exists in the target; lists every mismatch at once. */
function matchTables(header: BackupHeader, catalog: CatalogTable[]) {
  const problems: string[] = [];
  const plan = new Map<string, CatalogColumn[]>();
  for (const table of header.tables) {
    const target = catalog.find((t) => t.name === table.name);
    if (!target) {
      problems.push(`table ${table.name} does not exist in the target database`);
      continue;
    }
    const columns: CatalogColumn[] = [];
    for (const column of table.columns) {
      const match = target.columns.find((c) => c.name === column.name);
      if (match) columns.push(match);
      else problems.push(`column ${table.name}.${column.name} does not exist in the target database`);
    }
    plan.set(table.name, columns);
  }
  if (problems.length > 0) {
    throw new BackupError(
      `The backup does not fit the target database: ${problems.join('; ')}. ` +
        `Restore into a database of the same ${PRODUCT_NAME} version, with the same entity schemas.`,
    );
  }
  return plan;
}

/** The parameter placeholder with the cast that turns the backup's JSON value back into the column's type. */
function placeholder(column: CatalogColumn, value: unknown): RawBuilder<unknown> {
  if (value === null || value === undefined) return sql`null`;
  if (column.typname === 'bytea') return sql`decode(${value}, 'base64')`;
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // The type comes from the target's own catalog, never from the file.
  return sql`${text}::${sql.raw(column.type)}`;
}

async function insertBatch(db: Kysely<any>, table: string, columns: CatalogColumn[], rows: Array<Record<string, unknown>>) {
  if (rows.length === 0) return;
  const values = sql.join(rows.map((row) => sql`(${sql.join(columns.map((c) => placeholder(c, row[c.name])))})`));
  await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c.name)))}) overriding system value values ${values}`.execute(db);
}

async function resetSequences(db: Kysely<any>, catalog: CatalogTable[]) {
  for (const table of catalog) {
    for (const column of table.columns) {
      const found = await sql<{ seq: string | null }>`select pg_get_serial_sequence(${`public.${quoteIdent(table.name)}`}, ${column.name}) as "seq"`.execute(
        db,
      );
      const sequence = found.rows[0]?.seq;
      if (!sequence) continue;
      const ref = sql.ref(column.name);
      await sql`select setval(${sequence}::regclass, coalesce((select max(${ref}) from ${sql.table(table.name)}), 1), (select max(${ref}) from ${sql.table(table.name)}) is not null)`.execute(
        db,
      );
    }
  }
}

/**
 * The entity engine keeps exact list totals in {@link ROW_COUNTS_TABLE} and per-value totals in
 * {@link GROUP_COUNTS_TABLE}, maintained by triggers (off during the restore). A dump read while
 * the server kept writing (scheduled, on PGlite) may hold counts a few rows off the rows it holds,
 * so both are recounted from the restored rows.
 */
async function recountDerivedCounters(db: Kysely<any>, catalog: CatalogTable[]) {
  const has = (table: string, column?: string) => catalog.some((t) => t.name === table && (column === undefined || t.columns.some((c) => c.name === column)));
  if (has(ROW_COUNTS_TABLE)) {
    const counted = await sql<{ table_name: string }>`select table_name from ${sql.table(ROW_COUNTS_TABLE)}`.execute(db);
    for (const { table_name: name } of counted.rows) {
      if (!has(name)) continue;
      await sql`update ${sql.table(ROW_COUNTS_TABLE)} set row_count = (select count(*) from ${sql.table(name)}) where table_name = ${name}`.execute(db);
    }
  }
  if (has(GROUP_COUNTS_TABLE)) {
    const groups = await sql<{ table_name: string; column_name: string }>`
      select distinct table_name, column_name from ${sql.table(GROUP_COUNTS_TABLE)}`.execute(db);
    for (const { table_name: name, column_name: column } of groups.rows) {
      if (!has(name, column)) continue;
      const counts = sql.table(GROUP_COUNTS_TABLE);
      await sql`delete from ${counts} where table_name = ${name} and column_name = ${column}`.execute(db);
      await sql`insert into ${counts} (table_name, column_name, value, row_count)
        select ${name}, ${column}, ${sql.ref(column)}::text, count(*) from ${sql.table(name)} where ${sql.ref(column)} is not null group by 3`.execute(db);
    }
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The target's tables that already hold rows (the counters, derived data, do not count). */
async function nonEmptyTables(db: Kysely<any>, catalog: CatalogTable[]): Promise<string[]> {
  const filled: string[] = [];
  for (const table of catalog) {
    if (table.name === ROW_COUNTS_TABLE || table.name === GROUP_COUNTS_TABLE || SECRET_TABLES.includes(table.name)) continue;
    // A server's own signing key is not data: a database it has started on still counts as empty.
    const own = table.name === 'settings' ? sql`where key not in (${sql.join(SECRET_SETTINGS)})` : sql``;
    const result = await sql<{ any: boolean }>`select exists (select 1 from ${sql.table(table.name)} ${own}) as "any"`.execute(db);
    if (result.rows[0]?.any) filled.push(table.name);
  }
  return filled;
}

/**
 * Restores a backup written by {@link writeBackup} into an open, migrated database, PGlite or
 * PostgreSQL whichever made the file. Refuses a target that already has rows unless `force` (then
 * every table is emptied first). Everything happens in one transaction: a damaged or truncated file
 * leaves the target as it was. Serial sequences are set past the restored ids.
 */
export async function restoreBackup(database: Database, file: string, options: RestoreOptions = {}): Promise<BackupSummary> {
  const started = Date.now();
  const source = path.resolve(file);
  const iterator = readBackupLines(source);
  try {
    const header = parseHeader((await iterator.next()).value as string | undefined, source);

    const known = await appliedMigrations(database.db);
    const unknown = header.migrations.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new BackupError(`The backup was made by a newer version of ${PRODUCT_NAME} (migrations ${unknown.join(', ')}); upgrade before restoring it.`);
    }
    const catalog = await readCatalog(database.db);
    // Older backups carry sessions and the signing key: those rows are read (the counts are still
    // checked) but not restored.
    const plan = matchTables({ ...header, tables: header.tables.filter((t) => !SECRET_TABLES.includes(t.name)) }, catalog);
    const isSecret = (table: string, row: Record<string, unknown>) =>
      SECRET_TABLES.includes(table) || (table === 'settings' && SECRET_SETTINGS.includes(String(row.key)));
    const filled = await nonEmptyTables(database.db, catalog);
    if (filled.length > 0 && !options.force) {
      throw new BackupError(`The target database already has data (${filled.join(', ')}). Run the restore again with --force to replace it.`);
    }

    const counts: Record<string, number> = Object.fromEntries(header.tables.map((t) => [t.name, 0]));
    await database.db.transaction().execute(async (trx) => {
      // Everything but the target's own signing key goes: sessions and reset tokens included.
      const emptied = catalog.filter((t) => t.name !== 'settings');
      if (emptied.length > 0) {
        await sql`truncate table ${sql.join(emptied.map((t) => sql.table(t.name)))} restart identity cascade`.execute(trx);
      }
      if (catalog.some((t) => t.name === 'settings')) {
        await sql`delete from settings where key not in (${sql.join(SECRET_SETTINGS)})`.execute(trx);
      }
      // As pg_dump --disable-triggers: rows go back exactly as dumped (no trigger rewrites a
      // timestamp or counts a row twice). Foreign keys are constraint triggers and stay enforced.
      for (const t of catalog) await sql`alter table ${sql.table(t.name)} disable trigger user`.execute(trx);
      let table = '';
      let batch: Array<Record<string, unknown>> = [];
      // Rows per INSERT are bounded by count and by size: 500 rows of 1 MB would be one 500 MB statement.
      let batchChars = 0;
      let trailer: { end?: boolean; rows?: Record<string, number> } | undefined;
      const flush = async () => {
        await insertBatch(trx, table, plan.get(table)!, batch);
        batch = [];
        batchChars = 0;
      };
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        options.signal?.throwIfAborted();
        const line = next.value as string;
        if (line.trim() === '') continue;
        const parsed = JSON.parse(line) as { t?: string; r?: Record<string, unknown>; end?: boolean; rows?: Record<string, number> };
        if (parsed.end) {
          trailer = parsed;
          break;
        }
        if (parsed.t && parsed.r && isSecret(parsed.t, parsed.r)) {
          counts[parsed.t] = (counts[parsed.t] ?? 0) + 1;
          continue;
        }
        if (!parsed.t || !parsed.r || !plan.has(parsed.t)) throw new BackupError(`The backup file has a row for an unknown table: ${line.slice(0, 80)}`);
        if (parsed.t !== table || batch.length >= rowsPerInsert(plan.get(table)!, options) || batchChars >= MAX_BATCH_CHARS) await flush();
        table = parsed.t;
        batch.push(parsed.r);
        batchChars += line.length;
        counts[table] = (counts[table] ?? 0) + 1;
      }
      if (table) await flush();
      if (!trailer?.rows) throw new BackupError(`The backup file ${source} is incomplete (it has no end marker); it was not restored.`);
      for (const [name, expected] of Object.entries(trailer.rows)) {
        if ((counts[name] ?? 0) !== expected) {
          throw new BackupError(`The backup file ${source} is inconsistent: ${name} should have ${expected} rows, found ${counts[name] ?? 0}.`);
        }
      }
      for (const t of catalog) await sql`alter table ${sql.table(t.name)} enable trigger user`.execute(trx);
      await resetSequences(trx, catalog);
      await recountDerivedCounters(trx, catalog);
      // Restored rows went in with the triggers off: raise every data version so no server keeps
      // serving a list it read before the restore.
      const versions = await sql<{ found: boolean }>`select to_regclass(${DATA_VERSIONS_TABLE}) is not null as "found"`.execute(trx);
      if (versions.rows[0]?.found) await bumpDataVersions(trx);
    });
    const rows = Object.values(counts).reduce((sum, n) => sum + n, 0);
    return { file: source, tables: counts, rows, durationMs: Date.now() - started };
  } finally {
    await iterator.return(undefined);
  }
}

/** The most row text one INSERT carries (about 16 MB); a longer row goes alone. */
const MAX_BATCH_CHARS = 16 * 1024 * 1024;

function rowsPerInsert(columns: CatalogColumn[], options: RestoreOptions): number {
  // PostgreSQL takes at most 65,535 parameters per statement.
  return Math.max(1, Math.min(options.batchSize ?? 500, Math.floor(30_000 / Math.max(1, columns.length))));
}
