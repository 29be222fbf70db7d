import fs from 'node:fs';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { desiredTable, managedObjects } from '../../src/server/db/sync/index.js';
import { loadEntities } from '../../src/shared/descriptor/load-entities.js';

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const source = (name: string) => ({
  file: `tests/fixtures/entities/${name}.json`,
  descriptor: read(`tests/fixtures/entities/${name}.json`),
  schemaFile: `tests/fixtures/schemas/${name}.schema.json`,
  schema: read(`tests/fixtures/schemas/${name}.schema.json`),
});
const [maker, gadget] = loadEntities([source('fixture_maker'), source('fixture_gadget'), source('fixture_ledger')]);

describe('desiredTable', () => {
  it('maps every schema kind to its column type, NOT NULL and default', () => {
    const columns = Object.fromEntries(desiredTable(gadget!).columns.map((c) => [c.name, c]));
    const types = Object.fromEntries(Object.entries(columns).map(([name, c]) => [name, c.sqlType]));
    expect(types).toMatchObject({
      id: 'serial',
      title: 'text',
      state: 'text',
      enabled: 'boolean',
      quantity: 'integer',
      price: 'double precision',
      launch_date: 'date',
      starts_at: 'timestamptz',
      tags: 'jsonb',
      specs: 'jsonb',
      maker_id: 'integer',
      secret_code: 'text',
      created_at: 'timestamptz',
    });
    expect(columns).not.toHaveProperty('secret_code_confirmation');
    expect(columns.title!.notNull).toBe(true);
    expect(columns.summary!.notNull).toBe(false);
    expect(columns.created_at!.notNull).toBe(true);
    expect(columns.state!.default).toBeDefined();
    expect(columns.summary!.default).toBeUndefined();
  });
});

describe('managedObjects', () => {
  const names = managedObjects([maker!, gadget!]).map((o) => o.name);
  const has = (prefix: string) => names.some((n) => n.startsWith(prefix));

  it('adds CHECKs for enums, lengths and ranges, a unique constraint and a foreign key with its index', () => {
    for (const prefix of [
      'ck_fixture_gadgets_state_',
      'ck_fixture_gadgets_title_',
      'ck_fixture_gadgets_quantity_',
      'uq_fixture_gadgets_sku_',
      'fk_fixture_gadgets_maker_id_',
      'ix_fixture_gadgets_maker_id_',
    ]) {
      expect(has(prefix), prefix).toBe(true);
    }
  });

  it('indexes each sort with id, each filter, and text searches with trigrams, on the related table for a relation filter', () => {
    const db = new Kysely<any>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    const objects = managedObjects([maker!, gadget!]);
    const sqlOf = (prefix: string) => objects.find((o) => new RegExp(`^${prefix}[0-9a-f]{8}$`).test(o.name))!.create.compile(db).sql;
    expect(sqlOf('ix_fixture_gadgets_title_id_')).toMatch(/on "fixture_gadgets" \("title", "id"\)$/);
    expect(sqlOf('ix_fixture_gadgets_quantity_id_')).toMatch(/\("quantity", "id"\)$/);
    // q[maker_name] is a substring filter through the relation: a trigram index on the makers' name.
    expect(sqlOf('ix_fixture_makers_name_')).toMatch(/on "fixture_makers" using gin \("name" gin_trgm_ops\)$/);
    expect(sqlOf('ix_fixture_gadgets_summary_')).toMatch(/using gin \("summary" gin_trgm_ops\)$/);
    expect(sqlOf('fk_fixture_gadgets_maker_id_')).toMatch(/references "fixture_makers" \(id\) on delete restrict$/);
  });
});
