import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { type Database, openDatabase } from '../../src/server/db/kysely.js';
import { createTestDatabase, type TestDatabase, testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestClient } from '../helpers/test-app.js';

const FIXTURES = path.resolve('tests/fixtures');

/** A private copy of the fixture entities, so the test can edit them like staff would. */
function copyFixtures(): { dir: string; entities: string; schemas: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-sync-'));
  for (const sub of ['entities', 'schemas']) fs.cpSync(path.join(FIXTURES, sub), path.join(dir, sub), { recursive: true });
  return { dir, entities: path.join(dir, 'entities'), schemas: path.join(dir, 'schemas') };
}

function editJson(file: string, edit: (json: any) => void) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(json);
  fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** Adds `color` to the maker's schema, forms and list: data only, no code. */
function addColorField(entitiesDir: string, schemasDir: string) {
  editJson(path.join(schemasDir, 'fixture_maker.schema.json'), (schema) => {
    schema.properties.color = { type: ['string', 'null'], maxLength: 20 };
  });
  editJson(path.join(entitiesDir, 'fixture_maker.json'), (descriptor) => {
    descriptor.forms.create.fields.push('color');
    descriptor.forms.edit.fields.push('color');
    descriptor.list.columns.push({ field: 'color', sortable: true });
  });
}

async function columnsOf(db: Database['db'], table: string): Promise<Record<string, string>> {
  const result = await sql<{ column_name: string; data_type: string }>`select column_name, data_type from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return Object.fromEntries(result.rows.map((row) => [row.column_name, row.data_type]));
}

describe.each(testDatabaseKinds())('schema sync on %s', (kind) => {
  let testDb: TestDatabase;
  let database: Database;
  let copy: ReturnType<typeof copyFixtures>;

  const start = () =>
    buildApp(
      loadConfig({
        LOG_LEVEL: 'silent',
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        DEMO_DATA: 'false',
        BACKUP_INTERVAL_HOURS: '0',
        ...testDb.env,
        ENTITIES_DIR: copy.entities,
        SCHEMAS_DIR: copy.schemas,
      }),
      { database, logger: false },
    );

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    database = await openDatabase({ databaseUrl: testDb.env.DATABASE_URL });
    copy = copyFixtures();
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
    if (copy) fs.rmSync(copy.dir, { recursive: true, force: true });
  });

  it('adds a field from the schema alone: column, API, meta', async () => {
    let app = await start();
    let client = await new TestClient(app).init();
    await client.signIn();
    const before = await client.post('/api/fixture-makers', { name: 'Acme', country: 'my' });
    expect(before.status).toBe(201);
    expect(await columnsOf(database.db, 'fixture_makers')).not.toHaveProperty('color');
    await app.close();

    addColorField(copy.entities, copy.schemas);

    app = await start();
    client = await new TestClient(app).init();
    await client.signIn();
    expect(await columnsOf(database.db, 'fixture_makers')).toMatchObject({ color: 'text', name: 'text' });
    const created = await client.post('/api/fixture-makers', { name: 'Globex', country: 'sg', color: 'teal' });
    expect(created.status).toBe(201);
    expect(created.body.data.color).toBe('teal');
    expect((await client.get(`/api/fixture-makers/${before.body.data.id}`)).body.data.color).toBeNull();
    const updated = await client.put(`/api/fixture-makers/${before.body.data.id}`, { name: 'Acme', country: 'my', color: 'red' });
    expect(updated.body.data.color).toBe('red');
    expect((await client.get('/api/fixture-makers?sort=color&direction=desc')).body.data[0].color).toBe('teal');
    const tooLong = await client.post('/api/fixture-makers', { name: 'Initech', country: 'id', color: 'x'.repeat(21) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors[0]).toMatchObject({ path: 'color', keyword: 'maxLength' });
    const meta = await client.get('/api/meta/entities');
    const maker = meta.body.data.find((e: any) => e.name === 'fixture_maker');
    expect(maker.createSchema.properties).toHaveProperty('color');
    expect(maker.forms.edit.fields).toContain('color');
    expect(maker.list.columns.map((c: any) => c.field)).toContain('color');
    // The length CHECK came from maxLength too: the table refuses what the API would.
    await expect(sql`update fixture_makers set color = ${'y'.repeat(21)}`.execute(database.db)).rejects.toThrow(/check/i);
    await app.close();

    // A third start changes nothing.
    app = await start();
    await app.close();
  });

  it('refuses to start on a dropped or retyped column, naming it, and changes nothing', async () => {
    const schemaFile = path.join(copy.schemas, 'fixture_maker.schema.json');
    const original = fs.readFileSync(schemaFile, 'utf8');

    editJson(schemaFile, (schema) => {
      delete schema.properties.color;
    });
    editJson(path.join(copy.entities, 'fixture_maker.json'), (descriptor) => {
      descriptor.forms.create.fields = descriptor.forms.create.fields.filter((f: string) => f !== 'color');
      descriptor.forms.edit.fields = descriptor.forms.edit.fields.filter((f: string) => f !== 'color');
      descriptor.list.columns = descriptor.list.columns.filter((c: any) => c.field !== 'color');
    });
    await expect(start()).rejects.toThrow(/column "color" \(text\) of table "fixture_makers" is no longer in fixture_maker\.schema\.json/);

    fs.writeFileSync(schemaFile, original);
    editJson(schemaFile, (schema) => {
      schema.properties.color = { type: ['integer', 'null'] };
    });
    await expect(start()).rejects.toThrow(/column "color" of table "fixture_makers" is text but fixture_maker\.schema\.json now makes it integer/);
    expect(await columnsOf(database.db, 'fixture_makers')).toMatchObject({ color: 'text' });

    fs.writeFileSync(schemaFile, original);
    addColorField(copy.entities, copy.schemas);
  });

  it('stops start-up on a bad descriptor with the file, the JSON path and the reason', async () => {
    const file = path.join(copy.entities, 'fixture_maker.json');
    const original = fs.readFileSync(file, 'utf8');
    editJson(file, (descriptor) => {
      descriptor.list.columns.push({ field: 'no_such_field' });
    });
    await expect(start()).rejects.toThrow(`${file} at /list/columns/3/field: "no_such_field" is not a field of the schema "fixture_maker"`);
    fs.writeFileSync(file, original);
  });
});
