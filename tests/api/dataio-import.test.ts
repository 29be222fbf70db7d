import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/auth/password.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('import on %s', (kind) => {
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
  /** Polls a job until it is no longer running. */
  const waitFor = async (id: number) => {
    for (let n = 0; n < 600; n++) {
      const res = await client.get(`/api/imports/${id}`);
      if (res.body.data.status !== 'running') return res.body.data;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('import did not finish');
  };
  const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.app.db)).rows[0]!.n);
  const customersByEmail = async () =>
    Object.fromEntries((await sql<Record<string, any>>`select * from customers order by id`.execute(t.app.db)).rows.map((row) => [row.email, row]));

  it('reads a semicolon CSV with a BOM and a quoted line break, and guesses the mapping from headers in any language', async () => {
    const file = '\ufeffE-mel;Nama;Syarikat;Kata laluan;Max Entries;Status Akaun\r\nsiti@a.test;Siti;"Ogilvy;\nJakarta";secret-11;3;ya\r\n';
    const res = await upload('customer', file);
    expect(res.status).toBe(201);
    expect(res.body.data.headers).toEqual(['E-mel', 'Nama', 'Syarikat', 'Kata laluan', 'Max Entries', 'Status Akaun']);
    expect(res.body.data.mapping).toEqual(['email', 'name', 'company', 'password', 'max_entries', 'is_active']);
    expect(res.body.data.total_rows).toBe(1);
    expect(res.body.data.sample[0][2]).toBe('Ogilvy;\nJakarta');
  });

  const HEADER = 'Email,Name,Company,Password,Max Entries\n';
  const MAPPING = ['email', 'name', 'company', 'password', 'max_entries'];

  it('previews each invalid cell with the message key the form shows, and a preview fix makes the row valid', async () => {
    const file = `${HEADER}ok1@a.test,Ok One,Acme,secret-11,3\nnot-an-email,Bad,Acme,secret-11,3\nok2@a.test,Ok Two,Acme,123,200\n`;
    const { body } = await upload('customer', file);
    const preview = await client.post(`/api/imports/${body.data.id}/preview`, { mapping: MAPPING });
    expect(preview.status).toBe(200);
    expect(preview.body.data.invalid_rows).toBe(2);
    const errorsOf = (row: number) =>
      preview.body.data.rows
        .find((r: any) => r.row === row)
        .errors.map((e: any) => `${e.path} ${e.messageKey}`)
        .sort();
    expect(errorsOf(1)).toEqual([]);
    expect(errorsOf(2)).toEqual(['email validation.email.invalid']);
    expect(errorsOf(3)).toEqual(['max_entries validation.max_entries.max', 'password validation.password.min']);
    const fixed = await client.post(`/api/imports/${body.data.id}/preview`, {
      mapping: MAPPING,
      fixes: { 2: { email: 'fixed@a.test' }, 3: { password: 'secret-33', max_entries: '20' } },
    });
    expect(fixed.body.data.invalid_rows).toBe(0);
  });

  it('all-or-nothing: a file with one bad row changes nothing', async () => {
    const before = await customersByEmail();
    const file = `${HEADER}all1@a.test,All One,Acme,secret-11,3\nall2@a.test,All Two,Acme,short,3\nall3@a.test,All Three,Acme,secret-11,3\n`;
    const { body } = await upload('customer', file);
    const started = await client.post(`/api/imports/${body.data.id}/start`, { mapping: MAPPING, mode: 'all' });
    expect(started.status).toBe(202);
    const job = await waitFor(body.data.id);
    expect(job).toMatchObject({ status: 'failed', error: 'invalid_rows', failed_rows: 1, done_rows: 0 });
    expect(await customersByEmail()).toEqual(before);
  });

  it('valid rows only: imports exactly the valid rows, hashes their passwords, and reports the others', async () => {
    const file = `${HEADER}v1@a.test,Valid One,Acme,secret-11,3\nv2@a.test,,Acme,secret-22,abc\nV3@A.test,Valid Three,Acme,secret-33,4\nv1@a.test,Again,Acme,secret-44,5\n`;
    const { body } = await upload('customer', file);
    await client.post(`/api/imports/${body.data.id}/start`, { mapping: MAPPING, mode: 'valid' });
    const job = await waitFor(body.data.id);
    expect(job).toMatchObject({ status: 'done', created_rows: 2, updated_rows: 0, failed_rows: 2, has_report: true });
    const stored = await customersByEmail();
    expect(stored['v1@a.test']).toMatchObject({ name: 'Valid One', company: 'Acme', max_entries: 3 });
    expect(stored['v3@a.test']).toMatchObject({ name: 'Valid Three', max_entries: 4 });
    expect(stored['v2@a.test']).toBeUndefined();
    expect(stored['v1@a.test'].password_hash).toMatch(/^scrypt\$128\$8\$1\$/);
    expect(await verifyPassword('secret-11', stored['v1@a.test'].password_hash)).toBe(true);

    const report = await client.get(`/api/imports/${body.data.id}/report?lang=en`);
    expect(report.status).toBe(200);
    const rows = parse(report.body as string, { bom: true }) as string[][];
    expect(rows[0]).toEqual(['Row', 'Email', 'Name', 'Company', 'Password', 'Max Entries', 'Errors']);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['2', '4']);
    expect(rows[1]![6]).toContain('Max Entries');
    expect(rows[2]![6]).toMatch(/already/i);
    const audit = await sql<{ details: any }>`select details from audit_log where action = 'data.import' and entity = 'customer'`.execute(t.app.db);
    expect(audit.rows.map((row) => (typeof row.details === 'string' ? JSON.parse(row.details) : row.details))).toContainEqual(
      expect.objectContaining({ job: body.data.id, mode: 'valid', created: 2, failed: 2 }),
    );
  });

  it('updates by key (e-mail, any case) with the edit form rules, and creates the rest', async () => {
    const file = 'Email,Name,Job Title,Account Status\nV1@a.test,Renamed One,Planner,false\nnew-jury@a.test,N,Lead,true\nnew-2@a.test,New Two,Lead,true\n';
    const { body } = await upload('jury', file);
    await sql`insert into juries (name, email, round, is_active, country) values ('Old', 'v1@a.test', 1, true, 'MY')`.execute(t.app.db);
    const preview = await client.post(`/api/imports/${body.data.id}/preview`, { mapping: ['email', 'name', 'job_title', 'is_active'] });
    expect(preview.body.data.update_rows).toBe(1);
    // 'N' is too short a name: refused as the form refuses it.
    expect(preview.body.data.invalid_rows).toBe(1);
    await client.post(`/api/imports/${body.data.id}/start`, { mapping: ['email', 'name', 'job_title', 'is_active'], mode: 'valid' });
    const job = await waitFor(body.data.id);
    expect(job).toMatchObject({ status: 'done', created_rows: 1, updated_rows: 1, failed_rows: 1 });
    const jurors = (await sql<Record<string, any>>`select * from juries order by id`.execute(t.app.db)).rows;
    expect(jurors).toHaveLength(2);
    expect(jurors[0]).toMatchObject({ id: jurors[0]!.id, email: 'V1@a.test', name: 'Renamed One', job_title: 'Planner', is_active: false, round: 1 });
    expect(jurors[1]).toMatchObject({ email: 'new-2@a.test', name: 'New Two', round: 1, country: 'MY' });
  });

  it('a cancelled import leaves no half data', async () => {
    const lines = ['Name,Active'];
    for (let n = 0; n < 30_000; n++) lines.push(`Company ${n},true`);
    const { body } = await upload('company', `${lines.join('\n')}\n`);
    const before = await count('companies');
    const started = await client.post(`/api/imports/${body.data.id}/start`, { mapping: ['name', 'is_active'] });
    expect(started.status).toBe(202);
    const cancelled = await client.post(`/api/imports/${body.data.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await count('companies')).toBe(before);
  });

  it('runs one import per entity at a time', async () => {
    const { body } = await upload('company', 'Name\nSolo\n');
    // Running on another server: its heartbeat is recent.
    await sql`insert into import_jobs (entity, status, filename, file, progress_at) values ('company', 'running', 'other.csv', '\\x00', now())`.execute(
      t.app.db,
    );
    const refused = await client.post(`/api/imports/${body.data.id}/start`, { mapping: ['name'] });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].messageKey).toBe('dataio.import.errors.running');
    await sql`delete from import_jobs where status = 'running'`.execute(t.app.db);
  });

  it('imports an XLSX workbook', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow(['Name', 'Description', 'Status']);
    sheet.addRow(['Xlsx Film', 'Films and video spots', 'active']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const { status, body } = await upload('category', bytes, 'c.xlsx');
    expect(status).toBe(201);
    expect(body.data.mapping).toEqual(['name', 'description', 'status']);
    await client.post(`/api/imports/${body.data.id}/start`, { mapping: body.data.mapping });
    expect(await waitFor(body.data.id)).toMatchObject({ status: 'done', created_rows: 1 });
    const stored = (await sql<Record<string, any>>`select slug from categories where name = 'Xlsx Film'`.execute(t.app.db)).rows;
    expect(stored).toEqual([{ slug: 'xlsx-film' }]);
  });

  it('refuses more than 200,000 rows with a clear message, and unknown entities', async () => {
    const res = await upload('company', `Name\n${'a\n'.repeat(200_001)}`);
    expect(res.status).toBe(413);
    expect(res.body.errors[0]).toMatchObject({ messageKey: 'dataio.import.errors.too_many_rows' });
    expect((await upload('contest', 'Name\nx\n')).status).toBe(404);
  });

  it('takes country names in English, Indonesian and Malay as well as codes, and imports jury applicants with their expertise', async () => {
    const file =
      'E-mel,Nama,Syarikat,Negara,Expertise\n' +
      'nur@apply.test,Nur Aisyah,Studio Padi,Malaysia,"1, 2"\n' +
      'agus@apply.test,Agus Wibowo,Kompas,indonesia,3\n' +
      'lee@apply.test,Lee Wei,Kilau,my,\n' +
      'bad@apply.test,Bad Country,Kilau,Narnia,\n';
    const { status, body } = await upload('applicant', file);
    expect(status).toBe(201);
    expect(body.data.mapping).toEqual(['email', 'name', 'company', 'country', 'expertise']);
    const preview = await client.post(`/api/imports/${body.data.id}/preview`, { mapping: body.data.mapping });
    expect(preview.body.data.invalid_rows).toBe(1);
    const bad = preview.body.data.rows.find((r: any) => r.row === 4);
    expect(bad.errors.map((e: any) => e.path)).toEqual(['country']);
    // The fixed cell takes a name too.
    const fixed = await client.post(`/api/imports/${body.data.id}/preview`, { mapping: body.data.mapping, fixes: { 4: { country: 'Indonesia' } } });
    expect(fixed.body.data.invalid_rows).toBe(0);
    await client.post(`/api/imports/${body.data.id}/start`, { mapping: body.data.mapping, fixes: { 4: { country: 'Indonesia' } } });
    expect(await waitFor(body.data.id)).toMatchObject({ status: 'done', created_rows: 4, failed_rows: 0 });
    const stored = Object.fromEntries(
      (await sql<Record<string, any>>`select email, country, status, expertise from applicants where email like '%@apply.test'`.execute(t.app.db)).rows.map(
        (r) => [r.email, r],
      ),
    );
    expect(stored['nur@apply.test']).toMatchObject({ country: 'MY', status: 'applied' });
    const expertise = stored['nur@apply.test'].expertise;
    expect(typeof expertise === 'string' ? JSON.parse(expertise) : expertise).toEqual([1, 2]);
    expect(stored['agus@apply.test'].country).toBe('ID');
    expect(stored['lee@apply.test'].country).toBe('MY');
    expect(stored['bad@apply.test'].country).toBe('ID');
  });

  it('offers a sample file per importable entity that imports as it is', async () => {
    for (const entity of ['company', 'category', 'customer', 'jury', 'applicant']) {
      const sample = await client.get(`/api/imports/sample/${entity}?lang=id`);
      expect(sample.status, entity).toBe(200);
      const { body } = await upload(entity, sample.body as string);
      expect(
        body.data.mapping.every((field: string | null) => field !== null),
        `${entity} ${JSON.stringify(body.data)}`,
      ).toBe(true);
      const preview = await client.post(`/api/imports/${body.data.id}/preview`, { mapping: body.data.mapping });
      expect(preview.body.data.invalid_rows, `${entity} ${JSON.stringify(preview.body.data.rows)}`).toBe(0);
    }
  });
});
