import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/kysely.js';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupHeader, type BackupSummary } from './backup-format.js';
import { appliedMigrations, type CatalogColumn, type CatalogTable, readCatalog, SECRET_SETTINGS, SECRET_TABLES } from './catalog.js';

export interface WriteBackupOptions {
  /** Rows read per query; small enough that PGlite serves requests between batches. */
  batchSize?: number;
  /** Stops the backup between batches (the server is shutting down); the partial file is removed. */
  signal?: AbortSignal;
}

/**
 * The SQL expression that turns a column into its JSON value. Types JSON has no exact form for
 * (int8, numeric, floats, arrays, intervals...) travel as PostgreSQL's own text, which casts back
 * losslessly; json/jsonb travel as their JSON text (so SQL NULL and JSON `null` stay distinct);
 * bytea as base64; timestamps and dates keep `row_to_json`'s ISO 8601 form with microseconds.
 */
function valueExpression(column: CatalogColumn) {
  const ref = sql.ref(column.name);
  switch (column.typname) {
    case 'int2':
    case 'int4':
    case 'bool':
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'date':
    case 'timestamp':
    case 'timestamptz':
      return sql`${ref}`;
    case 'bytea':
      return sql`encode(${ref}, 'base64')`;
    default:
      return sql`${ref}::text`;
  }
}

/**
 * Streams one table as NDJSON lines into `out`, reading in primary-key order with keyset
 * pagination (`where (pk) > (last) order by pk limit n`), which stays fast at millions of rows.
 */
async function dumpTable(db: Kysely<any>, table: CatalogTable, out: NodeJS.WritableStream, options: WriteBackupOptions) {
  const batchSize = options.batchSize ?? 1000;
  const keyColumns = table.primaryKey.length > 0 ? table.primaryKey : ['ctid'];
  const keyTypes = table.primaryKey.length > 0 ? table.primaryKey.map((name) => table.columns.find((c) => c.name === name)!.type) : ['tid'];
  const keyList = sql.join(keyColumns.map((name) => sql.ref(name)));
  const selectList = sql.join(table.columns.map((c) => sql`${valueExpression(c)} as ${sql.id(c.name)}`));
  const keyOut = sql.join(keyColumns.map((name, i) => sql`${sql.ref(name)}::text as ${sql.id(`k${i}`)}`));
  const prefix = `{"t":${JSON.stringify(table.name)},"r":`;

  let count = 0;
  let last: string[] | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    const conditions = [
      ...(last ? [sql`(${keyList}) > (${sql.join(last.map((value, i) => sql`${value}::${sql.raw(keyTypes[i]!)}`))})`] : []),
      ...(table.name === 'settings' ? [sql`key not in (${sql.join(SECRET_SETTINGS)})`] : []),
    ];
    const after = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
    const page = await sql<Record<string, string>>`
      select (select row_to_json(v) from (select ${selectList}) as v)::text as "row", ${keyOut}
      from ${sql.table(table.name)} ${after} order by ${keyList} limit ${batchSize}`.execute(db);
    for (const row of page.rows) {
      if (!out.write(`${prefix}${row.row}}\n`)) await new Promise((resolve) => out.once('drain', resolve));
    }
    count += page.rows.length;
    if (page.rows.length < batchSize) return count;
    const tail = page.rows[page.rows.length - 1]!;
    last = keyColumns.map((_, i) => tail[`k${i}`]!);
  }
}

async function writeMember(file: string, produce: (out: zlib.Gzip) => Promise<void>) {
  const gzip = zlib.createGzip({ level: 6 });
  const done = pipeline(gzip, fs.createWriteStream(file));
  try {
    await produce(gzip);
    gzip.end();
  } catch (error) {
    gzip.destroy();
    await done.catch(() => undefined);
    throw error;
  }
  await done;
}

/**
 * Writes a logical backup of every table to `file` (gzip NDJSON: a header line, the rows table by
 * table, parents first, then an end line with the counts). The file appears complete or not at
 * all: it is assembled beside the target and renamed into place.
 *
 * On PostgreSQL the whole dump reads one repeatable-read snapshot. PGlite serves one query at a
 * time, so there the dump reads in batches between requests; to keep references intact while the
 * server keeps writing, tables are read children first: a parent is read after every row that
 * references it, so rows created meanwhile cannot leave a child without its parent. The file is then
 * assembled parents first, the order a restore inserts in.
 */
export async function writeBackup(database: Database, file: string, options: WriteBackupOptions = {}): Promise<BackupSummary> {
  const started = Date.now();
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const workDir = fs.mkdtempSync(path.join(path.dirname(target), '.backup-'));
  try {
    const run = async (db: Kysely<any>) => {
      const tables = (await readCatalog(db)).filter((t) => !SECRET_TABLES.includes(t.name));
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        created_at: new Date().toISOString(),
        source: database.kind,
        migrations: await appliedMigrations(db),
        tables: tables.map((t) => ({ name: t.name, primary_key: t.primaryKey, columns: t.columns.map(({ name, type }) => ({ name, type })) })),
      };
      const counts: Record<string, number> = {};
      for (const [index, table] of [...tables.entries()].reverse()) {
        await writeMember(path.join(workDir, `${index}.gz`), async (out) => {
          counts[table.name] = await dumpTable(db, table, out, options);
        });
      }
      return { header, tables, counts };
    };
    const { header, tables, counts } =
      database.kind === 'postgres'
        ? await database.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(run)
        : await run(database.db);

    const ordered: Record<string, number> = {};
    for (const table of tables) ordered[table.name] = counts[table.name] ?? 0;
    await writeMember(path.join(workDir, 'head.gz'), async (out) => void out.write(`${JSON.stringify(header)}\n`));
    await writeMember(path.join(workDir, 'tail.gz'), async (out) => void out.write(`${JSON.stringify({ end: true, rows: ordered })}\n`));

    // Concatenated gzip members form one valid gzip stream. Assembled inside the work folder (same
    // file system, removed on any failure) and renamed into place only once complete and synced.
    const partial = path.join(workDir, 'backup.partial');
    const members = ['head.gz', ...tables.map((_, i) => `${i}.gz`), 'tail.gz'];
    const output = fs.createWriteStream(partial, { mode: 0o600 });
    for (const member of members) {
      for await (const chunk of fs.createReadStream(path.join(workDir, member))) {
        if (!output.write(chunk)) await once(output, 'drain');
      }
    }
    await new Promise<void>((resolve, reject) => output.end((error?: Error | null) => (error ? reject(error) : resolve())));
    const fd = fs.openSync(partial, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, target);
    const rows = Object.values(ordered).reduce((sum, n) => sum + n, 0);
    return { file: target, tables: ordered, rows, durationMs: Date.now() - started };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
