import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { readBackupLines, restoreBackup } from '../../src/server/backup/restore-backup.js';
import { writeBackup } from '../../src/server/backup/write-backup.js';
import { startTestApp } from '../helpers/test-app.js';

// Issue 29, finding 5: reading a backup was quadratic in its longest line (the partial line was
// appended to and searched again at every chunk): a 22 MB line took 25 s, a backup after one 45 MB
// import (two 141 MB lines) over 10 minutes. Lines are now split in one pass.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-restore-line-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('reading a backup line by line', () => {
  it('gives back every line exactly: empty ones, multi-byte characters across chunk boundaries, a last line without a newline', async () => {
    const lines: string[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 400; i++) {
      const length = Math.floor(random() ** 4 * 300_000);
      // Whole repeats only: a cut through the emoji's surrogate pair is no valid text to compare.
      lines.push(i % 37 === 0 ? '' : 'aé€😀b'.repeat(Math.ceil(length / 6)));
    }
    const file = path.join(tmp, 'lines.gz');
    fs.writeFileSync(file, zlib.gzipSync(lines.join('\n')));
    const read: string[] = [];
    for await (const line of readBackupLines(file)) read.push(line);
    expect(read.length).toBe(lines.length);
    expect(read.every((line, i) => line === lines[i])).toBe(true);
  });

  // A 64 MB line took minutes before (about 25 s × (64 / 22)², far past the test's limit); it now
  // reads in about a second. The line is a row of a table backups no longer carry (sessions, as
  // older backups have them): read, parsed and counted, not inserted, so the time is the reading.
  it('restores a backup holding a 64 MB line, and a 4 MB row', async () => {
    const source = await startTestApp('pglite');
    const target = await startTestApp('pglite');
    try {
      const row = 'y'.repeat(4 * 1024 * 1024);
      await sql`insert into settings (key, value) values ('hardening.big', ${row})`.execute(source.app.db);
      const made = path.join(tmp, 'made.ndjson.gz');
      await writeBackup(source.app.database, made);
      const lines = zlib.gunzipSync(fs.readFileSync(made)).toString('utf8').trimEnd().split('\n');
      const trailer = JSON.parse(lines.pop()!);
      trailer.rows.sessions = 1;
      const long = JSON.stringify({ t: 'sessions', r: { id: 'old-session', pad: 'z'.repeat(64 * 1024 * 1024) } });
      const file = path.join(tmp, 'long.ndjson.gz');
      fs.writeFileSync(file, zlib.gzipSync(`${[...lines, long, JSON.stringify(trailer)].join('\n')}\n`, { level: 1 }));

      const summary = await restoreBackup(target.app.database, file, { force: true });
      expect(summary.tables.sessions).toBe(1);
      const restored = await sql<{ n: number }>`select length(value) as n from settings where key = 'hardening.big'`.execute(target.app.db);
      expect(Number(restored.rows[0]!.n)).toBe(row.length);
      expect(await target.app.db.selectFrom('sessions').select('id').where('id', '=', 'old-session').execute()).toEqual([]);
    } finally {
      await source.close();
      await target.close();
    }
  }, 120_000);
});
