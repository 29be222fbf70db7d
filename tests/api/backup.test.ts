import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { restoreBackup } from '../../src/server/backup/restore-backup.js';
import { listScheduledBackups, pruneScheduledBackups } from '../../src/server/backup/scheduled-backups.js';
import { writeBackup } from '../../src/server/backup/write-backup.js';
import { loadConfig } from '../../src/server/config.js';
import { acquireDataDirLock } from '../../src/server/data-dir-lock.js';
import { type Database, openDatabase } from '../../src/server/db/kysely.js';
import { allMigrations, migrateToLatest } from '../../src/server/db/migrate.js';
import { syncEntityTables } from '../../src/server/db/sync/index.js';
import { loadConfiguredEntities } from '../../src/server/plugins/entities.js';
import { createTestDatabase, type TestDatabase, testDatabaseKinds } from '../helpers/databases.js';

type Kind = 'pglite' | 'postgres';

/** Stand-ins for entity tables: every type a schema can map to, a composite key, and a reference
 * whose parent sorts after the child by name (so only dependency order restores it). */
async function createProbeTables(db: Kysely<any>) {
  await sql`create table zz_parent (id serial primary key, name text not null)`.execute(db);
  await sql`create table aa_child (
    id bigserial primary key,
    parent_id integer not null references zz_parent(id),
    amount numeric(14, 4), big int8, ratio float8, day date, at timestamptz, local_at timestamp,
    doc jsonb, raw json, tags text[], blob bytea, flag boolean, label varchar(40),
    upper_name text generated always as (upper(label)) stored)`.execute(db);
  await sql`create table pairs (a text, b integer, note text, primary key (a, b))`.execute(db);
  // A trigger that rewrites rows: a restore must not apply it a second time.
  await sql`create function probe_mark() returns trigger language plpgsql as $$ begin new.name := new.name || '!'; return new; end $$`.execute(db);
  await sql`create trigger probe_mark before insert on zz_parent for each row execute function probe_mark()`.execute(db);
  // The entity engine's counter tables, as its schema sync creates them.
  await sql`create table entity_row_counts (table_name text primary key, row_count bigint not null)`.execute(db);
  await sql`create table entity_group_counts (table_name text not null, column_name text not null, value text not null,
    row_count bigint not null, primary key (table_name, column_name, value))`.execute(db);
  // The data versions table may exist already: a feature's migration versions its own table (user_editions).
  await sql`create table if not exists entity_data_versions (table_name text primary key, version bigint not null)`.execute(db);
}

async function fillProbeTables(db: Kysely<any>) {
  await sql`insert into zz_parent (name) select 'parent ' || g from generate_series(1, 25) g`.execute(db);
  await sql`insert into aa_child (parent_id, amount, big, ratio, day, at, local_at, doc, raw, tags, blob, flag, label)
    select 1 + (g % 25), g * 1.2345, 9007199254740993 + g, 1.0 / 3 * g, date '2024-02-29' + g,
      timestamptz '2026-01-31 23:59:59.123456+07' + g * interval '1 minute', timestamp '2026-06-01 10:00:00.000001',
      jsonb_build_object('n', g, 'nested', jsonb_build_array('a', null, true)), 'null'::json, array['x', 'y "quoted"', null],
      decode('00ff10', 'hex'), g % 2 = 0, 'label ' || g
    from generate_series(1, 60) g`.execute(db);
  await sql`insert into aa_child (parent_id, doc, raw) values (3, null, null)`.execute(db);
  await sql`insert into pairs select 'k' || (g % 4), g, 'note ' || g from generate_series(1, 30) g`.execute(db);
  await sql`insert into settings (key, value) values ('probe', 'value with ''quotes'' and ünïcode')`.execute(db);
  // Counters a few rows off, as a dump read while the server kept writing can hold them.
  await sql`insert into entity_row_counts values ('zz_parent', 999), ('aa_child', 1)`.execute(db);
  await sql`insert into entity_group_counts values ('aa_child', 'flag', 'true', 5), ('aa_child', 'label', 'bogus', 3)`.execute(db);
  await sql`insert into entity_data_versions values ('zz_parent', 40), ('aa_child', 70)`.execute(db);
}

/** Every table's rows as the database itself renders them, for an exact comparison. */
async function snapshot(db: Kysely<any>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of ['zz_parent', 'aa_child', 'pairs', 'settings', 'users']) {
    const rows = await sql<{ r: string }>`select row_to_json(t)::text as r from ${sql.table(table)} t order by 1`.execute(db);
    out[table] = rows.rows.map((r) => r.r);
  }
  return out;
}

async function openFresh(kind: Kind): Promise<{ database: Database; test: TestDatabase }> {
  const test = await createTestDatabase(kind);
  const database = await openDatabase({ databaseUrl: test.env.DATABASE_URL });
  await migrateToLatest(database.db);
  await createProbeTables(database.db);
  return { database, test };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(testDatabaseKinds())('backup and restore from %s', (kind) => {
  let source: { database: Database; test: TestDatabase };
  let file: string;
  let expected: Record<string, string[]>;

  beforeAll(async () => {
    source = await openFresh(kind);
    await fillProbeTables(source.database.db);
    await sql`insert into users (email, name, password_hash) values ('a@example.com', 'A', 'x'), ('b@example.com', 'B', 'y')`.execute(source.database.db);
    expected = await snapshot(source.database.db);
    file = path.join(tmp, `${kind}.ndjson.gz`);
  });
  afterAll(async () => {
    await source?.database.close();
    await source?.test.drop();
  });

  it('writes a header, every row in dependency order, and an end line with the counts', async () => {
    const summary = await writeBackup(source.database, file, { batchSize: 7 });
    expect(summary.tables).toMatchObject({ zz_parent: 25, aa_child: 61, pairs: 30, settings: 1, users: 2, entity_row_counts: 2 });
    const lines = zlib
      .gunzipSync(fs.readFileSync(file))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ format: 'awards-console-backup', version: 1, source: kind, migrations: Object.keys(allMigrations()) });
    const names = lines[0].tables.map((t: { name: string }) => t.name);
    expect(names).not.toContain('kysely_migration');
    expect(names.indexOf('zz_parent')).toBeLessThan(names.indexOf('aa_child'));
    expect(lines[0].tables.find((t: { name: string }) => t.name === 'pairs').primary_key).toEqual(['a', 'b']);
    expect(lines.at(-1)).toMatchObject({ end: true, rows: { aa_child: 61 } });
    const rowTables = lines.slice(1, -1).map((l) => l.t as string);
    expect(rowTables.indexOf('aa_child')).toBeGreaterThan(rowTables.lastIndexOf('zz_parent'));
    const child = lines.find((l) => l.t === 'aa_child' && l.r.id === '1').r;
    expect(child).toMatchObject({ big: '9007199254740994', day: '2024-03-01', raw: 'null', flag: false });
    expect(child.at).toMatch(/^2026-01-\d\dT\d\d:\d\d:59\.123456/);
    expect(new Date(child.at).toISOString()).toBe('2026-01-31T17:00:59.123Z');
    expect(child).not.toHaveProperty('upper_name');
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith('.backup-') || n.endsWith('.partial'))).toEqual([]);
  });

  it.each(testDatabaseKinds())('restores into an empty %s database exactly, sequences past the restored ids', async (targetKind) => {
    const target = await openFresh(targetKind);
    try {
      const summary = await restoreBackup(target.database, file, { batchSize: 9 });
      expect(summary.rows).toBe(25 + 61 + 30 + 1 + 2 + 2 + 2);
      expect(await snapshot(target.database.db)).toEqual(expected);
      const next = await sql<{ id: number; name: string }>`insert into zz_parent (name) values ('new') returning id, name`.execute(target.database.db);
      expect(next.rows[0]).toEqual({ id: 26, name: 'new!' });
      const user = await sql<{ id: number }>`insert into users (email, name, password_hash) values ('c@example.com', 'C', 'z') returning id`.execute(
        target.database.db,
      );
      expect(user.rows[0]!.id).toBe(3);
    } finally {
      await target.database.close();
      await target.test.drop();
    }
  });

  it('recounts the entity counters from the restored rows', async () => {
    const target = await openFresh(kind);
    try {
      await restoreBackup(target.database, file);
      const rows = await sql<{ table_name: string; row_count: number }>`select * from entity_row_counts order by 1`.execute(target.database.db);
      expect(rows.rows).toEqual([
        { table_name: 'aa_child', row_count: 61 },
        { table_name: 'zz_parent', row_count: 25 },
      ]);
      const groups = await sql<{ column_name: string; value: string; row_count: number }>`
        select column_name, value, row_count from entity_group_counts where column_name = 'flag' or value in ('bogus', 'label 7') order by 1, 2`.execute(
        target.database.db,
      );
      expect(groups.rows).toEqual([
        { column_name: 'flag', value: 'false', row_count: 30 },
        { column_name: 'flag', value: 'true', row_count: 30 },
        { column_name: 'label', value: 'label 7', row_count: 1 },
      ]);
    } finally {
      await target.database.close();
      await target.test.drop();
    }
  });

  it('neither dumps nor restores the data versions, and raises every version of the target instead', async () => {
    const lines = zlib
      .gunzipSync(fs.readFileSync(file))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].tables.map((t: { name: string }) => t.name)).not.toContain('entity_data_versions');
    const target = await openFresh(kind);
    try {
      // The target's servers may hold lists read at these versions: after the restore, none may match.
      await sql`insert into entity_data_versions values ('zz_parent', 500), ('aa_child', 3)`.execute(target.database.db);
      const versions = async () =>
        (await sql<{ table_name: string; version: string }>`select * from entity_data_versions order by 1`.execute(target.database.db)).rows.map((row) => ({
          table_name: row.table_name,
          version: Number(row.version),
        }));
      // Besides these, a feature's own versioned table (user_editions, from its migration): raised too
      // (by its own trigger as well when the restore rewrites its rows).
      const before = await versions();
      await restoreBackup(target.database, file);
      const after = await versions();
      expect(after.filter((row) => ['aa_child', 'zz_parent'].includes(row.table_name))).toEqual([
        { table_name: 'aa_child', version: 4 },
        { table_name: 'zz_parent', version: 501 },
      ]);
      expect(after.map((row) => row.table_name)).toEqual(before.map((row) => row.table_name));
      for (const [i, row] of after.entries()) expect(row.version, row.table_name).toBeGreaterThan(before[i]!.version);
    } finally {
      await target.database.close();
      await target.test.drop();
    }
  });

  it('refuses a target that has data unless forced, then replaces it', async () => {
    const target = await openFresh(kind);
    try {
      await sql`insert into zz_parent (name) values ('already here')`.execute(target.database.db);
      await expect(restoreBackup(target.database, file)).rejects.toThrow(/already has data \(zz_parent\).*--force/);
      await restoreBackup(target.database, file, { force: true });
      expect(await snapshot(target.database.db)).toEqual(expected);
    } finally {
      await target.database.close();
      await target.test.drop();
    }
  });

  it('leaves the target untouched when the file is cut short or is not a backup', async () => {
    const target = await openFresh(kind);
    try {
      const whole = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').trim().split('\n');
      const cut = path.join(tmp, `${kind}-cut.ndjson.gz`);
      fs.writeFileSync(cut, zlib.gzipSync(`${whole.slice(0, -1).join('\n')}\n`));
      await expect(restoreBackup(target.database, cut)).rejects.toThrow(/incomplete/);
      const damaged = path.join(tmp, `${kind}-damaged.ndjson.gz`);
      const bytes = fs.readFileSync(file);
      fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
      await expect(restoreBackup(target.database, damaged)).rejects.toThrow();
      const other = path.join(tmp, `${kind}-other.ndjson.gz`);
      fs.writeFileSync(other, zlib.gzipSync('{"hello":"world"}\n'));
      await expect(restoreBackup(target.database, other)).rejects.toThrow(/not an Awards Console backup/);
      const count = await sql<{ n: number }>`select count(*) as n from aa_child`.execute(target.database.db);
      expect(count.rows[0]!.n).toBe(0);
    } finally {
      await target.database.close();
      await target.test.drop();
    }
  });

  it('names every table the target lacks instead of restoring part of the backup', async () => {
    const test = await createTestDatabase(kind);
    const database = await openDatabase({ databaseUrl: test.env.DATABASE_URL });
    try {
      await migrateToLatest(database.db);
      await expect(restoreBackup(database, file)).rejects.toThrow(/table aa_child does not exist.*table pairs does not exist/);
    } finally {
      await database.close();
      await test.drop();
    }
  });
});

describe('scheduled backups on PGlite', () => {
  it('writes one after start when none is recent, keeps the newest seven, and leaves manual backups alone', async () => {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
    const dir = path.join(dataDir, 'backups');
    fs.mkdirSync(dir, { recursive: true });
    const old = Date.now() / 1000 - 3 * 3600;
    for (let day = 1; day <= 8; day++) {
      const name = path.join(dir, `scheduled-2020-01-0${day}T00-00-00-000Z.ndjson.gz`);
      fs.writeFileSync(name, 'old');
      fs.utimesSync(name, old, old);
    }
    fs.writeFileSync(path.join(dir, 'backup-2019-01-01T00-00-00-000Z.ndjson.gz'), 'manual');
    const config = loadConfig({
      DATA_DIR: dataDir,
      BACKUP_INTERVAL_HOURS: '1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'correct-horse-battery',
    });
    const app = await buildApp(config, { logger: false });
    try {
      const deadline = Date.now() + 15_000;
      const settled = () => !listScheduledBackups(dir)[0]?.includes('2020-01-0') && listScheduledBackups(dir).length === 7;
      while (Date.now() < deadline && !settled()) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const scheduled = listScheduledBackups(dir);
      expect(scheduled[0]).not.toMatch(/2020-01-0/);
      expect(scheduled).toHaveLength(7);
      expect(fs.existsSync(path.join(dir, 'backup-2019-01-01T00-00-00-000Z.ndjson.gz'))).toBe(true);
      const header = JSON.parse(zlib.gunzipSync(fs.readFileSync(scheduled[0]!)).toString('utf8').split('\n')[0]!);
      expect(header.source).toBe('pglite');
    } finally {
      await app.close();
    }
  });

  it('prunes only scheduled backups, oldest first', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'prune-'));
    for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(dir, `scheduled-2021-01-0${i + 1}T00-00-00-000Z.ndjson.gz`), '');
    fs.writeFileSync(path.join(dir, 'notes.txt'), '');
    const removed = pruneScheduledBackups(dir, 1);
    expect(removed.map((f) => path.basename(f))).toEqual(['scheduled-2021-01-02T00-00-00-000Z.ndjson.gz', 'scheduled-2021-01-01T00-00-00-000Z.ndjson.gz']);
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.txt', 'scheduled-2021-01-03T00-00-00-000Z.ndjson.gz']);
  });
});

describe('npm run backup / npm run restore', { timeout: 180_000 }, () => {
  // The built commands (`npm test` builds first; run `node build.mjs` before a targeted run).
  const run = (command: 'backup' | 'restore', args: string[], env: Record<string, string>) => {
    const result = spawnSync(process.execPath, [path.resolve(`dist/server/${command}.js`), ...args], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      timeout: 150_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const sourceDir = path.join(tmp, 'cli-source');
  const file = path.join(tmp, 'cli.ndjson.gz');

  beforeAll(async () => {
    // A data directory as a server leaves it: system tables, entity tables, an admin, some rows.
    fs.mkdirSync(sourceDir, { recursive: true });
    const database = await openDatabase({ pgliteDir: path.join(sourceDir, 'pglite') });
    try {
      await migrateToLatest(database.db);
      await syncEntityTables(database.db, loadConfiguredEntities(loadConfig({})));
      await sql`insert into users (email, name, password_hash) select 'cli-' || g || '@example.com', 'CLI ' || g, 'x' from generate_series(1, 12) g`.execute(
        database.db,
      );
    } finally {
      await database.close();
    }
  });

  it('backs up an embedded database and prints one line with the row counts', () => {
    const result = run('backup', ['--out', file], { DATA_DIR: sourceDir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      new RegExp(`^Backed up embedded PGlite in ${sourceDir} to ${file}: \\d+ tables, \\d+ rows \\(.*users 12.*\\) in \\d+ ms\\.\\n$`),
    );
    expect(fs.existsSync(path.join(sourceDir, 'server.lock'))).toBe(false);
  });

  it('writes to DATA_DIR/backups by default', () => {
    const result = run('backup', [], { DATA_DIR: sourceDir });
    expect(result.code).toBe(0);
    expect(fs.readdirSync(path.join(sourceDir, 'backups'))).toEqual([expect.stringMatching(/^backup-\d{4}-\d\d-\d\dT[\d-]+Z\.ndjson\.gz$/)]);
  });

  it('refuses while a server holds the data directory, and says to stop it or use the scheduled backups', () => {
    const release = acquireDataDirLock(sourceDir);
    try {
      const result = run('backup', ['--out', path.join(tmp, 'never.ndjson.gz')], { DATA_DIR: sourceDir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'npm run backup failed: npm run backup cannot open the embedded database while another process uses it. Stop the server first',
      );
      expect(result.stderr).toContain(`scheduled backups to ${path.join(sourceDir, 'backups')}`);
      expect(result.stderr).toContain(`process ${process.pid}`);
      expect(fs.existsSync(path.join(tmp, 'never.ndjson.gz'))).toBe(false);
    } finally {
      release();
    }
  });

  it('restores into an empty data directory, then refuses to overwrite it without --force', async () => {
    const targetDir = path.join(tmp, 'cli-target');
    const first = run('restore', [file], { DATA_DIR: targetDir });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(
      new RegExp(`^Restored ${file} into embedded PGlite in ${targetDir}: \\d+ tables, \\d+ rows \\(.*users 12.*\\) in \\d+ ms\\.\\n$`),
    );
    const again = run('restore', [file], { DATA_DIR: targetDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^npm run restore failed: The target database already has data \(users\)\. Run the restore again with --force to replace it\.\n$/,
    );
    expect(run('restore', [file, '--force'], { DATA_DIR: targetDir }).code).toBe(0);

    // The restored database has the entity tables and exact row counters, and opens for a server.
    const database = await openDatabase({ pgliteDir: path.join(targetDir, 'pglite') });
    try {
      const counters = await sql<{ table_name: string; row_count: number }>`select table_name, row_count from entity_row_counts`.execute(database.db);
      expect(counters.rows.length).toBeGreaterThan(0);
      for (const { table_name, row_count } of counters.rows) {
        const actual = await sql<{ n: number }>`select count(*) as n from ${sql.table(table_name)}`.execute(database.db);
        expect({ table_name, row_count }).toEqual({ table_name, row_count: actual.rows[0]!.n });
      }
      const users = await sql<{ n: number }>`select count(*) as n from users`.execute(database.db);
      expect(users.rows[0]!.n).toBe(12);
    } finally {
      await database.close();
    }
  });

  it.runIf(testDatabaseKinds().includes('postgres'))('moves an embedded database into PostgreSQL and back', async () => {
    const pgTarget = await createTestDatabase('postgres');
    try {
      const restored = run('restore', [file], { DATABASE_URL: pgTarget.env.DATABASE_URL! });
      expect(restored).toMatchObject({ code: 0, stderr: '' });
      expect(restored.stdout).toContain('into PostgreSQL (DATABASE_URL): ');
      const back = path.join(tmp, 'from-postgres.ndjson.gz');
      expect(run('backup', ['--out', back], { DATABASE_URL: pgTarget.env.DATABASE_URL! }).code).toBe(0);
      const returned = run('restore', [back], { DATA_DIR: path.join(tmp, 'cli-returned') });
      expect(returned.code).toBe(0);
      expect(returned.stdout).toContain('users 12');
    } finally {
      await pgTarget.drop();
    }
  });

  it('explains a missing file, a missing argument and an unknown option', () => {
    const dir = path.join(tmp, 'cli-errors');
    expect(run('restore', [path.join(tmp, 'nope.ndjson.gz')], { DATA_DIR: dir }).stderr).toContain('does not exist');
    expect(run('restore', [], { DATA_DIR: dir })).toMatchObject({ code: 1, stderr: expect.stringContaining('Usage: npm run restore -- FILE [--force]') });
    expect(run('backup', ['--bogus'], { DATA_DIR: sourceDir })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Usage: npm run backup -- [--out FILE]'),
    });
    expect(run('backup', [], { DATA_DIR: path.join(tmp, 'empty-dir') })).toMatchObject({ code: 1, stderr: expect.stringContaining('There is no database in') });
  });
});
