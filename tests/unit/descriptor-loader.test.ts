import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { objectName } from '../../src/server/db/sync/desired-schema.js';
import { knownExtensionNames, registeredHookNames } from '../../src/server/extensions.js';
import { toClientEntity } from '../../src/shared/descriptor/client-entity.js';
import { DescriptorError } from '../../src/shared/descriptor/descriptor-error.js';
import { type EntitySource, loadEntities } from '../../src/shared/descriptor/load-entities.js';
import { toFieldErrors } from '../../src/shared/field-errors.js';
import { slugify } from '../../src/shared/slugify.js';

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const knownHooks = registeredHookNames();

function source(name: string, dir = 'tests/fixtures'): EntitySource {
  const file = path.join(dir, 'entities', `${name}.json`);
  const schemaFile = path.join(dir, 'schemas', `${name}.schema.json`);
  return { file, descriptor: read(file), schemaFile, schema: read(schemaFile) };
}

const fixtures = () => [source('fixture_maker'), source('fixture_gadget'), source('fixture_ledger')];

/** Loads the fixtures after one edit of the gadget's descriptor or schema; returns the error. */
function errorAfter(edit: (gadget: EntitySource) => void): DescriptorError {
  const sources = fixtures();
  edit(sources[1]!);
  try {
    loadEntities(sources, { knownHooks, names: knownExtensionNames });
  } catch (error) {
    if (error instanceof DescriptorError) return error;
    throw error;
  }
  throw new Error('loaded without an error');
}

describe('loadEntities', () => {
  it('loads every real entity and fixture, filling defaults and freezing the result', () => {
    const real = fs.readdirSync('entities').map((f) => source(path.basename(f, '.json'), '.'));
    const loaded = loadEntities([...real, ...fixtures()], { knownHooks, names: knownExtensionNames });
    const category = loaded.find((e) => e.descriptor.name === 'category')!;
    expect(category.descriptor.routes).toEqual({
      list: 'manage-category',
      create: 'create-category',
      detail: 'manage-category/:id',
      edit: 'manage-category/edit/:id',
    });
    expect(category.descriptor.texts.invalidId).toBe('entities.category.invalid_id');
    expect(category.descriptor.table).toBe('categories');
    expect(Object.isFrozen(category.descriptor.list.columns[0])).toBe(true);
    const gadget = loaded.find((e) => e.descriptor.name === 'fixture_gadget')!;
    expect(gadget.descriptor.includes).toEqual(['maker']);
    expect(gadget.createSchema.additionalProperties).toBe(false);
    expect(gadget.createSchema.properties).not.toHaveProperty('id');
    expect(gadget.createSchema.required).toEqual(['title', 'sku', 'state', 'quantity', 'maker_id']);
    expect(Object.keys(gadget.updateSchema.properties!)).toEqual(gadget.descriptor.forms.edit.fields);
  });

  it.each([
    ['an unknown key', (g: EntitySource) => ((g.descriptor as any).colour = 'red'), '/', 'must NOT have additional properties ("colour")'],
    [
      'a column naming no field',
      (g: EntitySource) => (g.descriptor as any).list.columns.push({ field: 'nope' }),
      '/list/columns/12/field',
      '"nope" is not a field',
    ],
    ['a read-only field in a form', (g: EntitySource) => (g.descriptor as any).forms.edit.fields.push('created_at'), '/forms/edit/fields/11', 'read-only'],
    [
      'an unknown widget',
      (g: EntitySource) => ((g.descriptor as any).forms.edit.uiSchema.summary['ui:widget'] = 'wysiwyg'),
      '/forms/edit/uiSchema/summary/ui:widget',
      'unknown widget "wysiwyg"',
    ],
    [
      'an unknown hook',
      (g: EntitySource) => ((g.descriptor as any).hooks = { beforeWrite: ['make-coffee'] }),
      '/hooks/beforeWrite/0',
      'unknown hook "make-coffee"',
    ],
    [
      'a substring filter on a number',
      (g: EntitySource) => (g.descriptor as any).list.filters.push({ param: 'q[qty]', field: 'quantity', operator: 'ilike', input: 'text' }),
      '/list/filters/8/operator',
      'ilike needs a text field',
    ],
    [
      'a reserved filter name',
      (g: EntitySource) => (g.descriptor as any).list.filters.push({ param: 'page', field: 'title', operator: 'eq', input: 'text' }),
      '/list/filters/8/param',
      'reserved',
    ],
    [
      'a reference filter on a field no relation holds',
      (g: EntitySource) => (g.descriptor as any).list.filters.push({ param: 'q[qty]', field: 'quantity', operator: 'eq', input: 'reference' }),
      '/list/filters/8/field',
      'needs a belongsTo relation whose field is "quantity"',
    ],
    [
      'a reference filter that is not exact',
      (g: EntitySource) => (g.descriptor as any).list.filters.push({ param: 'q[maker_from]', field: 'maker_id', operator: 'gte', input: 'reference' }),
      '/list/filters/8/operator',
      'operator must be eq',
    ],
    [
      'option fields on a text filter',
      (g: EntitySource) => ((g.descriptor as any).list.filters[0].optionFields = { label: 'name' }),
      '/list/filters/0/optionFields',
      'only for input "reference"',
    ],
    [
      'a typed ID on a text filter',
      (g: EntitySource) => ((g.descriptor as any).list.filters[0].typedId = true),
      '/list/filters/0/typedId',
      'only for input "reference"',
    ],
    [
      'a reference option field the target lacks',
      (g: EntitySource) =>
        (g.descriptor as any).list.filters.push({
          param: 'q[made_by]',
          field: 'maker_id',
          operator: 'eq',
          input: 'reference',
          optionFields: { label: 'name', description: 'email' },
        }),
      '/list/filters/8/optionFields/description',
      '"email" is not a readable field of "fixture_maker"',
    ],
    ['a sortable column not in sorts', (g: EntitySource) => ((g.descriptor as any).list.sorts = ['title']), '/list/columns/2/sortable', 'not in list.sorts'],
    [
      'a relation to no entity',
      (g: EntitySource) => ((g.descriptor as any).relations.maker.entity = 'ghost'),
      '/relations/maker/entity',
      'no entity is named "ghost"',
    ],
    [
      'a relation display it does not return',
      (g: EntitySource) => ((g.descriptor as any).relations.maker.fields = ['country']),
      '/list/columns/4/display',
      '"name" is not among the fields',
    ],
    [
      'a required field missing from the create form',
      (g: EntitySource) => ((g.descriptor as any).forms.create.fields = (g.descriptor as any).forms.create.fields.filter((f: string) => f !== 'sku')),
      '/forms/create/fields',
      '"sku" is required',
    ],
  ])('refuses %s, naming the file, the JSON path and the reason', (_what, edit, jsonPath, reason) => {
    const error = errorAfter(edit);
    expect(error.file).toBe(path.join('tests/fixtures/entities/fixture_gadget.json'));
    expect(error.jsonPath).toBe(jsonPath);
    expect(error.reason).toContain(reason);
    expect(error.message).toContain(`fixture_gadget.json at ${jsonPath}`);
  });

  it.each([
    ['an unsupported type', (g: EntitySource) => ((g.schema as any).properties.weird = { type: ['string', 'integer'] }), '/properties/weird'],
    ['an unsafe field name', (g: EntitySource) => ((g.schema as any).properties['Drop Table'] = { type: 'string' }), '/properties/Drop Table'],
    ['a keyword typo', (g: EntitySource) => ((g.schema as any).properties.title.maxLenght = 3), ''],
    ['a missing schema file', (g: EntitySource) => (g.schema = undefined), ''],
  ])('refuses a schema with %s, naming the schema file', (_what, edit, jsonPath) => {
    const error = errorAfter(edit);
    expect(error.file).toBe(path.join('tests/fixtures/schemas/fixture_gadget.schema.json'));
    expect(error.jsonPath).toBe(jsonPath);
  });

  it("accepts a reference filter on a relation's foreign key, with option fields of the target", () => {
    const sources = fixtures();
    (sources[1]!.descriptor as any).list.filters.push({
      param: 'q[made_by]',
      field: 'maker_id',
      operator: 'eq',
      input: 'reference',
      typedId: true,
      optionFields: { label: 'name', description: 'country' },
    });
    const gadget = loadEntities(sources, { knownHooks, names: knownExtensionNames })[1]!;
    expect(gadget.descriptor.list.filters.at(-1)).toMatchObject({ input: 'reference', typedId: true, optionFields: { label: 'name', description: 'country' } });
  });

  it('refuses two entities with one endpoint', () => {
    const sources = fixtures();
    (sources[2]!.descriptor as any).endpoint = 'fixture-makers';
    expect(() => loadEntities(sources)).toThrow(/endpoint "fixture-makers" is already used/);
  });
});

describe('toClientEntity', () => {
  it('drops server-only keys and resolves permissions for the role', () => {
    const [, , ledger] = loadEntities(fixtures(), { knownHooks, names: knownExtensionNames });
    const client = toClientEntity(ledger!, 'admin') as unknown as Record<string, unknown>;
    expect(client).not.toHaveProperty('hooks');
    expect(client).not.toHaveProperty('table');
    expect(client.permissions).toEqual({ list: true, read: true, create: false, update: false, delete: false });
    expect((toClientEntity(ledger!, 'juror') as any).permissions.delete).toBe(true);
    expect((toClientEntity(ledger!, undefined) as any).permissions.list).toBe(false);
  });
});

describe('message keys', () => {
  it('maps a descriptor message first, then validation.<keyword> with ajv params', () => {
    const [category] = loadEntities([source('category', '.')], { knownHooks, names: knownExtensionNames });
    const errors = toFieldErrors(
      [
        { instancePath: '', keyword: 'required', params: { missingProperty: 'name' } },
        { instancePath: '/description', keyword: 'minLength', params: { limit: 10 } },
        { instancePath: '/status', keyword: 'enum', params: { allowedValues: ['active', 'inactive'] } },
        { instancePath: '/other', keyword: 'maxLength', params: { limit: 5 } },
      ],
      category!.descriptor.messages,
    );
    expect(errors.map((e) => [e.path, e.messageKey])).toEqual([
      ['name', 'validation.name.required'],
      ['description', 'validation.description.min'],
      ['status', 'validation.status.enum'],
      ['other', 'validation.maxLength'],
    ]);
    expect(errors[3]!.params).toEqual({ limit: 5 });
  });
});

describe('slugify and object names', () => {
  it('makes URL slugs from names', () => {
    expect(slugify('Best Use of Social')).toBe('best-use-of-social');
    expect(slugify('  Café & Co. — 2025!  ')).toBe('cafe-and-co-2025');
    expect(slugify('!!!')).toBe('');
  });

  it('names managed objects within 63 characters, stably, and differently per definition', () => {
    const long = objectName('ix_', 'a_very_long_table_name_for_testing', ['a_very_long_column_name', 'id'], 'def 1');
    expect(long.length).toBeLessThanOrEqual(63);
    expect(objectName('ix_', 't', ['c'], 'def 1')).toBe(objectName('ix_', 't', ['c'], 'def 1'));
    expect(objectName('ix_', 't', ['c'], 'def 1')).not.toBe(objectName('ix_', 't', ['c'], 'def 2'));
  });
});

describe('descriptor.schema.json', () => {
  it('describes every key, as the reference staff read when they edit a descriptor', () => {
    const undocumented: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
        const described = property === true || (typeof property === 'object' && property !== null && typeof (property as any).description === 'string');
        if (!described) undocumented.push(`${at}/properties/${key}`);
        walk(property, `${at}/properties/${key}`);
      }
      for (const [key, inner] of Object.entries((schema.definitions ?? {}) as Record<string, unknown>)) walk(inner, `${at}/definitions/${key}`);
      for (const keyword of ['items', 'additionalProperties']) walk(schema[keyword], `${at}/${keyword}`);
      for (const keyword of ['oneOf', 'anyOf', 'allOf'])
        (schema[keyword] as unknown[] | undefined)?.forEach((inner, i) => {
          walk(inner, `${at}/${keyword}/${i}`);
        });
    };
    walk(read('schemas/descriptor.schema.json'), '');
    expect(undocumented).toEqual([]);
  });
});
