import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportService } from '../../src/features/dataio/server/imports.service.js';
import { dataioSecrets } from '../../src/features/dataio/server/migrations/021-dataio-secrets.js';
import { dataioFileParts } from '../../src/features/dataio/server/migrations/025-dataio-file-parts.js';
import { MAX_IMPORT_BYTES } from '../../src/features/dataio/shared/import-limits.js';
import { verifyPassword } from '../../src/server/auth/password.js';
import { writeBackup } from '../../src/server/backup/write-backup.js';
import { writeAudit } from '../../src/server/index.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { rowBombXlsx, sharedStringBombXlsx, wideXlsx } from '../helpers/xlsx-bombs.js';

// Issue 29 (hardening), findings 1, 3, 4 and 6, through the real API on both databases:
// 1. no password of an import file is stored (job row, fixes, report, backup), jobs expire, and
//    migration 021 cleans the rows stored before it;
// 3. workbooks that inflate past the limits are refused while they are read;
// 4. NUL bytes and UTF-16 are named in the preview and at upload;
// 6. every CSV written (list export, import report, audit export) neutralises formula cells.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-import-safety-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(testDatabaseKinds())('import safety on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
  });
  afterAll(async () => t?.close());

  const upload = async (entity: string, file: string | Buffer, filename = 'file.csv') => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/imports?entity=${entity}&filename=${filename}`,
      payload: typeof file === 'string' ? Buffer.from(file, 'utf8') : file,
      headers: {
        'content-type': 'application/octet-stream',
        cookie: `XSRF-TOKEN=${client.xsrf}`,
        'x-xsrf-token': client.xsrf,
        authorization: `Bearer ${client.token}`,
      },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const waitFor = async (id: number) => {
    for (let n = 0; n < 600; n++) {
      const res = await client.get(`/api/imports/${id}`);
      if (res.body.data.status !== 'running') return res.body.data;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('import did not finish');
  };
  /** Everything stored of a job, as text: its table (gunzipped), mapping, fixes and report. */
  const storedJob = async (id: number) => {
    const row = (await sql<Record<string, any>>`select * from import_jobs where id = ${id}`.execute(t.app.db)).rows[0]!;
    const parts = (await sql<{ data: Uint8Array }>`select data from import_job_parts where job_id = ${id} order by seq`.execute(t.app.db)).rows;
    const file = Buffer.concat([Buffer.from(row.file as Uint8Array), ...parts.map((part) => Buffer.from(part.data))]);
    const table = file.length > 0 && file[0] === 0x1f ? zlib.gunzipSync(file).toString('utf8') : file.toString('utf8');
    return { row, text: [table, JSON.stringify(row.mapping), JSON.stringify(row.fixes), JSON.stringify(row.report)].join('\n') };
  };
  const hashOf = async (email: string) =>
    (await sql<{ password_hash: string }>`select password_hash from customers where email = ${email}`.execute(t.app.db)).rows[0]?.password_hash;

  describe('finding 1: no password of an import file is kept', () => {
    const SECRET_OK = 'Plain-Secret-Alpha-1';
    const SECRET_FIXED = 'Typed-Fix-Bravo-2';
    const SECRET_SHORT = 'abc';

    it('stores the upload with its password cells hashed, never in clear text, and empties the job when done', async () => {
      const file = `Email,Name,Password,Max Entries\nsafe1@import.test,Safe One,${SECRET_OK},3\nsafe2@import.test,Safe Two,${SECRET_SHORT},3\n`;
      const up = await upload('customer', file);
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(up.body.data.mapping).toEqual(['email', 'name', 'password', 'max_entries']);
      // The answer masks the cells too.
      expect(JSON.stringify(up.body)).not.toContain(SECRET_OK);
      const id = up.body.data.id;
      let stored = await storedJob(id);
      expect(stored.text).not.toContain(SECRET_OK);
      expect(stored.text).not.toContain(SECRET_SHORT);
      expect(stored.text).toContain('safe1@import.test');

      // The preview checks the sealed cell (too short) and masks both.
      const preview = await client.post(`/api/imports/${id}/preview`, { mapping: up.body.data.mapping });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.data.invalid_rows).toBe(1);
      expect(preview.body.data.rows[1].errors.map((e: { path: string }) => e.path)).toEqual(['password']);
      expect(JSON.stringify(preview.body)).not.toContain(SECRET_SHORT);
      expect(preview.body.data.rows[0].values[2]).toBe('********');

      // A password typed as a fix is used, but not stored with the job.
      const fixes = { '2': { password: SECRET_FIXED } };
      const fixed = await client.post(`/api/imports/${id}/preview`, { mapping: up.body.data.mapping, fixes });
      expect(fixed.body.data.invalid_rows).toBe(0);
      const started = await client.post(`/api/imports/${id}/start`, { mapping: up.body.data.mapping, fixes });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      expect(await waitFor(id)).toMatchObject({ status: 'done', created_rows: 2 });
      expect(await verifyPassword(SECRET_OK, (await hashOf('safe1@import.test'))!)).toBe(true);
      expect(await verifyPassword(SECRET_FIXED, (await hashOf('safe2@import.test'))!)).toBe(true);

      stored = await storedJob(id);
      expect(stored.text).not.toContain(SECRET_FIXED);
      expect(stored.text).not.toContain(SECRET_OK);
      // The job has ended: its table is gone.
      expect(Buffer.from(stored.row.file as Uint8Array).length).toBe(0);
      expect((await sql<{ n: number }>`select count(*)::int as n from import_job_parts where job_id = ${id}`.execute(t.app.db)).rows[0]!.n).toBe(0);
    });

    it('masks passwords in the failed-row report, stored and downloaded', async () => {
      const file = `Email,Name,Password,Max Entries\nrep1@import.test,Rep One,${SECRET_OK},3\nnot-an-email,Rep Two,${SECRET_FIXED},3\n`;
      const up = await upload('customer', file);
      const id = up.body.data.id;
      await client.post(`/api/imports/${id}/start`, { mapping: up.body.data.mapping, mode: 'valid' });
      expect(await waitFor(id)).toMatchObject({ status: 'done', created_rows: 1, failed_rows: 1 });
      const stored = await storedJob(id);
      expect(stored.text).not.toContain(SECRET_FIXED);
      const report = await client.get(`/api/imports/${id}/report?lang=en`);
      expect(report.status).toBe(200);
      expect(String(report.body)).not.toContain(SECRET_FIXED);
      const rows = parse(String(report.body).replace(/^\ufeff/, '')) as string[][];
      expect(rows[1]!.slice(0, 5)).toEqual(['2', 'not-an-email', 'Rep Two', '********', '3']);
    });

    it('refuses a password mapped from a column not headed as one (it was stored unsealed)', async () => {
      const up = await upload('customer', 'Email,Name,Secret Word,Max Entries\nmap1@import.test,Map One,Hidden-Charlie-3,3\n');
      expect(up.body.data.mapping).toEqual(['email', 'name', null, 'max_entries']);
      const res = await client.post(`/api/imports/${up.body.data.id}/preview`, { mapping: ['email', 'name', 'password', 'max_entries'] });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].messageKey).toBe('dataio.import.errors.secret_column');
    });

    it('expires jobs past the retention and keeps them out of backups', async () => {
      const up = await upload('company', 'Name\nExpiring Company\n');
      const id = up.body.data.id;
      const backup = path.join(tmp, `${kind}.ndjson.gz`);
      await writeBackup(t.app.database, backup);
      const text = zlib.gunzipSync(fs.readFileSync(backup)).toString('utf8');
      expect(JSON.parse(text.split('\n')[0]!).tables.map((table: { name: string }) => table.name)).not.toContain('import_jobs');
      expect(text).not.toContain('"t":"import_jobs"');

      const service = new ImportService({ db: t.app.db, registry: t.app.entities, log: t.app.log });
      expect(await service.expire(30)).toBe(0);
      await sql`update import_jobs set created_at = now() - interval '31 days' where id = ${id}`.execute(t.app.db);
      expect(await service.expire(30)).toBeGreaterThanOrEqual(1);
      expect((await sql`select id from import_jobs where id = ${id}`.execute(t.app.db)).rows).toEqual([]);
    });

    it('migration 021 drops the raw files, fixes and report cells stored before it', async () => {
      // A job as stored before: the raw upload (a password in it), its fixes and its report.
      await sql`drop index import_jobs_created_idx`.execute(t.app.db);
      await sql`alter table import_jobs drop column secret_columns`.execute(t.app.db);
      const raw = Buffer.from(`Email,Password\nold@import.test,${SECRET_OK}\n`);
      const report = JSON.stringify({ headers: ['Email', 'Password'], rows: [{ row: 1, values: ['old@import.test', SECRET_OK], errors: [] }] });
      const fixes = JSON.stringify({ '1': { password: SECRET_FIXED } });
      await sql`insert into import_jobs (entity, filename, file, status, report, fixes) values
        ('customer', 'old.csv', ${raw}, 'done', ${report}::jsonb, ${fixes}::jsonb),
        ('customer', 'waiting.csv', ${raw}, 'uploaded', null, null)`.execute(t.app.db);
      await dataioSecrets.up(t.app.db);
      const rows = (await sql<Record<string, any>>`select * from import_jobs where filename in ('old.csv', 'waiting.csv')`.execute(t.app.db)).rows;
      expect(rows.map((row) => row.filename)).toEqual(['old.csv']);
      const all = JSON.stringify(rows.map((row) => ({ ...row, file: Buffer.from(row.file as Uint8Array).toString('utf8') })));
      expect(all).not.toContain(SECRET_OK);
      expect(all).not.toContain(SECRET_FIXED);
      expect(rows[0]!.report.rows[0]).toEqual({ row: 1, values: [], errors: [] });
    });
  });

  describe('finding 4: uploads are read as they stream, never gathered first', () => {
    /** A request body of `total` bytes made as the server reads it: `head`, then lines of `line`; `pulled()` says how much it read. */
    const lazyBody = (head: string, line: string, total: number) => {
      const piece = Buffer.from(line.repeat(Math.ceil((64 * 1024) / line.length)));
      let pulled = 0;
      const stream = new Readable({
        read() {
          if (pulled >= total) return void this.push(null);
          const chunk = pulled === 0 ? Buffer.from(head) : piece;
          pulled += chunk.length;
          this.push(chunk);
        },
      });
      return { stream, pulled: () => pulled };
    };
    const uploadStream = async (entity: string, body: Readable, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/imports?entity=${entity}&filename=streamed.csv`,
        payload: body,
        headers: {
          'content-type': 'application/octet-stream',
          cookie: `XSRF-TOKEN=${client.xsrf}`,
          'x-xsrf-token': client.xsrf,
          authorization: `Bearer ${client.token}`,
          ...headers,
        },
      });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    };

    it('refuses an upload past 50 MB as soon as it passes, and one that declares it before reading it', async () => {
      const over = lazyBody('Name\n', 'Streamed Company\n', 60 * 1024 * 1024);
      const res = await uploadStream('company', over.stream);
      expect(res.status).toBe(413);
      expect(res.body.errors[0].messageKey).toBe('dataio.import.errors.too_large');
      expect(over.pulled()).toBeLessThan(MAX_IMPORT_BYTES + 1024 * 1024);

      const declared = lazyBody('Name\n', 'Streamed Company\n', 60 * 1024 * 1024);
      const early = await uploadStream('company', declared.stream, { 'content-length': String(60 * 1024 * 1024) });
      expect(early.status).toBe(413);
      expect(early.body.errors[0].messageKey).toBe('dataio.import.errors.too_large');
      expect(declared.pulled()).toBeLessThan(1024 * 1024);
    });

    it('refuses a file by its first rows while the rest is still on its way', async () => {
      // 80 KB of rows, the second 301 cells wide, then the body stalls: read whole first, it would never be answered.
      const head = `Name\n${'x,'.repeat(300)}x\n${'Streamed Company\n'.repeat(5000)}`;
      let sentHead = false;
      const stalled = new Readable({
        read() {
          if (!sentHead) this.push(Buffer.from(head));
          sentHead = true;
        },
      });
      const res = await uploadStream('company', stalled);
      expect(res.status).toBe(413);
      expect(res.body.errors[0].messageKey).toBe('dataio.import.errors.too_many_columns');
      stalled.destroy();
    });

    it('reads a file sent in small pieces that split characters, quoted line breaks and password cells', async () => {
      const text =
        'Email,Name,Password,Max Entries\npiece1@import.test,"Zoë Ñandú, ""Ibu""\nKedua",Split-Secret-Delta-4,2\npiece2@import.test,Ağustus Şen,Split-Secret-Echo-5,1\n';
      const bytes = Buffer.from(text, 'utf8');
      const pieces: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += 3) pieces.push(bytes.subarray(at, at + 3));
      const up = await uploadStream('customer', Readable.from(pieces));
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(up.body.data.total_rows).toBe(2);
      expect(up.body.data.sample).toEqual([
        ['piece1@import.test', 'Zoë Ñandú, "Ibu"\nKedua', '********', '2'],
        ['piece2@import.test', 'Ağustus Şen', '********', '1'],
      ]);
      expect((await storedJob(up.body.data.id)).text).not.toContain('Split-Secret-Delta-4');
      const id = up.body.data.id;
      await client.post(`/api/imports/${id}/start`, { mapping: up.body.data.mapping, mode: 'valid' });
      expect(await waitFor(id)).toMatchObject({ status: 'done', created_rows: 2 });
      expect(await verifyPassword('Split-Secret-Delta-4', (await hashOf('piece1@import.test'))!)).toBe(true);
    });

    it('keeps a large table in parts of about 256 KB, each its own row, and reads them back in order', async () => {
      // Random notes, so that gzip cannot shrink the table to one part: 30,000 rows of 120 hex characters.
      const lines = ['Name,Notes'];
      for (let n = 1; n <= 30_000; n++) lines.push(`${n === 30_000 ? 'X' : `Parted Company ${n}`},${crypto.randomBytes(60).toString('hex')}`);
      const up = await upload('company', `${lines.join('\n')}\n`);
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      const id = up.body.data.id;
      const parts = (
        await sql<{ seq: number; bytes: number }>`select seq, octet_length(data) as bytes from import_job_parts where job_id = ${id} order by seq`.execute(
          t.app.db,
        )
      ).rows;
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.map((part) => part.seq)).toEqual(parts.map((_part, index) => index));
      for (const part of parts) expect(Number(part.bytes)).toBeLessThan(300 * 1024);
      expect(Buffer.from((await storedJob(id)).row.file as Uint8Array).length).toBe(0);
      // Every part read, in order: the last row (of the last part) is the one invalid name.
      const preview = await client.post(`/api/imports/${id}/preview`, { mapping: ['name', null] });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.data.invalid_rows).toBe(1);
      expect(preview.body.data.rows.find((row: any) => row.errors.length > 0)).toMatchObject({ row: 30_000 });
      // Deleting the job (its retention over) takes its parts with it.
      await sql`delete from import_jobs where id = ${id}`.execute(t.app.db);
      expect((await sql<{ n: number }>`select count(*)::int as n from import_job_parts where job_id = ${id}`.execute(t.app.db)).rows[0]!.n).toBe(0);
    });

    it('migration 025 moves a table stored whole into a part, and the job still imports', async () => {
      const table = zlib.gzipSync('Name\nMoved Company One\nMoved Company Two\n');
      const job = (
        await sql<{
          id: number;
        }>`insert into import_jobs (entity, filename, file, total_rows) values ('company', 'whole.csv', ${table}, 2) returning id`.execute(t.app.db)
      ).rows[0]!.id;
      // As stored before 025: the parts table did not exist and the table was the job's file.
      const moved = await sql`select job_id, seq, data from import_job_parts`.execute(t.app.db);
      await sql`drop table import_job_parts`.execute(t.app.db);
      await dataioFileParts.up(t.app.db);
      for (const row of moved.rows as Array<{ job_id: number; seq: number; data: Uint8Array }>) {
        await sql`insert into import_job_parts (job_id, seq, data) values (${row.job_id}, ${row.seq}, ${Buffer.from(row.data)})`.execute(t.app.db);
      }
      const stored = await storedJob(job);
      expect(Buffer.from(stored.row.file as Uint8Array).length).toBe(0);
      expect(stored.text).toContain('Moved Company Two');
      await client.post(`/api/imports/${job}/start`, { mapping: ['name'], mode: 'all' });
      expect(await waitFor(job)).toMatchObject({ status: 'done', created_rows: 2 });
    });

    it('answers 400 to an empty body', async () => {
      const res = await uploadStream('company', Readable.from([]));
      expect(res.status).toBe(400);
    });
  });

  describe('finding 3: workbooks are refused while they are read', () => {
    it('refuses a shared-string bomb (a 150 MB string in a small file) before inflating it', async () => {
      const res = await upload('company', sharedStringBombXlsx(150 * 1024 * 1024), 'bomb.xlsx');
      expect(res.status).toBe(413);
      expect(res.body.errors[0].messageKey).toBe('dataio.import.errors.workbook_too_large');
    });

    it('refuses a row bomb by its inflation ratio, before reading its rows', async () => {
      const res = await upload('company', rowBombXlsx(300_000), 'rows.xlsx');
      expect(res.status).toBe(413);
      expect(res.body.errors[0].messageKey).toBe('dataio.import.errors.workbook_too_large');
    });

    it('refuses a cell past column 256 and a cell of more than 32,767 characters', async () => {
      const wide = await upload('company', wideXlsx({ column: 'XFD' }), 'wide.xlsx');
      expect(wide.status).toBe(413);
      expect(wide.body.errors[0].messageKey).toBe('dataio.import.errors.too_many_columns');
      const long = await upload('company', wideXlsx({ cellChars: 40_000 }), 'long.xlsx');
      expect(long.status).toBe(413);
      expect(long.body.errors[0].messageKey).toBe('dataio.import.errors.cell_too_long');
    });
  });

  describe('finding 4: encodings are named, row by row', () => {
    it('refuses UTF-16 text at upload with its own message', async () => {
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name\r\nSixteen Company\r\n', 'utf16le')]);
      const res = await upload('company', utf16);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].messageKey).toBe('dataio.import.errors.utf16');
    });

    it('marks each row with a NUL byte in the preview', async () => {
      const up = await upload('company', 'Name\nClean Company\nNul\u0000Company\n');
      expect(up.status).toBe(201);
      const preview = await client.post(`/api/imports/${up.body.data.id}/preview`, { mapping: ['name'] });
      expect(preview.body.data.invalid_rows).toBe(1);
      expect(preview.body.data.rows[1].errors).toContainEqual(expect.objectContaining({ path: '', messageKey: 'dataio.import.errors.nul_row' }));
      expect(preview.body.data.rows[0].errors).toEqual([]);
    });
  });

  describe('finding 6: CSV files neutralise formula cells', () => {
    const FORMULA = '=HYPERLINK("http://x.test","click")';

    it('in the list export (COPY on PostgreSQL, the stream on PGlite)', async () => {
      const made = await client.post('/api/categories', { name: FORMULA, description: '@SUM(1+1) of the films', status: 'active' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const res = await client.get('/api/categories/export?format=csv&lang=en');
      expect(res.status).toBe(200);
      const rows = parse(String(res.body).replace(/^\ufeff/, '')) as string[][];
      const row = rows.find((cells) => cells.includes(`'${FORMULA}`));
      expect(row, String(res.body)).toBeDefined();
      expect(row).toContain("'@SUM(1+1) of the films");
      expect(rows.flat().some((cell) => /^[=+@\t\r]/.test(cell))).toBe(false);
    });

    it('in the import report', async () => {
      const up = await upload('company', 'Name,Is Active\n-cmd|calc,maybe\n');
      const id = up.body.data.id;
      await client.post(`/api/imports/${id}/start`, { mapping: up.body.data.mapping, mode: 'valid' });
      expect(await waitFor(id)).toMatchObject({ status: 'done', failed_rows: 1 });
      const report = await client.get(`/api/imports/${id}/report?lang=en`);
      const rows = parse(String(report.body).replace(/^\ufeff/, '')) as string[][];
      expect(rows[1]![1]).toBe("'-cmd|calc");
    });

    it('in the audit export', async () => {
      await writeAudit(t.app.db, { action: '+audit.formula', userId: null, ip: null, entity: 'company', entityId: null, details: {} });
      const res = await client.get('/api/audit?format=csv&action=%2Baudit.formula');
      expect(res.status).toBe(200);
      expect(String(res.body)).toContain("'+audit.formula");
      expect(String(res.body)).not.toMatch(/(^|,)\+audit\.formula/m);
    });
  });
});
