import descriptorSchema from '../../../schemas/descriptor.schema.json';
import { applyDefaults } from './apply-defaults.js';
import { type CheckOptions, checkDescriptor, checkSchema, type Problem } from './check-descriptor.js';
import { createAjv } from './create-ajv.js';
import { deriveCreateSchema, deriveUpdateSchema } from './derive-schemas.js';
import { DescriptorError } from './descriptor-error.js';
import { isTextual } from './schema-fields.js';
import type { EntityDescriptor, JsonSchema, LoadedEntity } from './types.js';

/** One entity as read from disk: the descriptor and its schema, parsed, with their file names. */
export interface EntitySource {
  file: string;
  descriptor: unknown;
  schemaFile: string;
  /** `undefined` when the schema file does not exist. */
  schema: unknown;
}

/** What `loadEntities` checks names against (see `CheckOptions`). */
export type LoadOptions = CheckOptions;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function raise(source: EntitySource, problem: Problem): never {
  throw new DescriptorError(problem.file === 'schema' ? source.schemaFile : source.file, problem.path, problem.reason);
}

/**
 * Validates each descriptor against `schemas/descriptor.schema.json`, fills its defaults, checks
 * every field it names against its schema, checks relations between entities, derives the
 * create and update body schemas, and freezes the result.
 *
 * @throws DescriptorError naming the file, the JSON path and the reason of the first problem.
 */
export function loadEntities(sources: readonly EntitySource[], options: LoadOptions = {}): LoadedEntity[] {
  const ajv = createAjv();
  const validateDescriptor = ajv.compile(descriptorSchema as object);
  const loaded: LoadedEntity[] = [];

  for (const source of sources) {
    if (!validateDescriptor(source.descriptor)) {
      const error = validateDescriptor.errors![0]!;
      const detail = error.keyword === 'additionalProperties' ? ` ("${String(error.params.additionalProperty)}")` : '';
      raise(source, { file: 'descriptor', path: error.instancePath || '/', reason: `${error.message ?? error.keyword}${detail}` });
    }
    if (source.schema === undefined) {
      raise(source, { file: 'schema', path: '', reason: 'the schema file does not exist' });
    }
    const schema = source.schema as JsonSchema;
    const schemaProblem = checkSchema(schema)[0];
    if (schemaProblem) raise(source, schemaProblem);
    try {
      createAjv().compile(schema);
    } catch (error) {
      raise(source, { file: 'schema', path: '', reason: `does not compile: ${(error as Error).message}` });
    }
    const descriptor = applyDefaults(source.descriptor as Record<string, any>, schema);
    const problem = checkDescriptor(descriptor, schema, options)[0];
    if (problem) raise(source, problem);
    loaded.push({ descriptor, schema, createSchema: {}, updateSchema: {}, file: source.file });
  }

  checkAcrossEntities(loaded, sources);
  for (const entity of loaded) {
    entity.createSchema = deriveCreateSchema(entity.descriptor, entity.schema);
    entity.updateSchema = deriveUpdateSchema(entity.descriptor, entity.schema);
  }
  return loaded.map((entity) => deepFreeze(entity));
}

/** Names, endpoints, tables and routes are unique; relations point at real entities and fields. */
function checkAcrossEntities(loaded: LoadedEntity[], sources: readonly EntitySource[]): void {
  const byName = new Map<string, LoadedEntity>();
  const seen = { name: new Map<string, string>(), endpoint: new Map<string, string>(), table: new Map<string, string>(), route: new Map<string, string>() };
  loaded.forEach((entity, index) => {
    const d = entity.descriptor;
    const source = sources[index]!;
    const unique = (kind: keyof typeof seen, value: string, path: string) => {
      const other = seen[kind].get(value);
      if (other) raise(source, { file: 'descriptor', path, reason: `${kind} "${value}" is already used by ${other}` });
      seen[kind].set(value, entity.file);
    };
    unique('name', d.name, '/name');
    unique('endpoint', d.endpoint, '/endpoint');
    unique('table', d.table, '/table');
    unique('route', d.routes.list, '/routes/list');
    unique('route', d.routes.create, '/routes/create');
    byName.set(d.name, entity);
  });

  loaded.forEach((entity, index) => {
    const d = entity.descriptor as EntityDescriptor;
    const source = sources[index]!;
    const fail: (path: string, reason: string) => never = (path, reason) => raise(source, { file: 'descriptor', path, reason });
    for (const [name, relation] of Object.entries(d.relations)) {
      const target = byName.get(relation.entity);
      if (!target) fail(`/relations/${name}/entity`, `no entity is named "${relation.entity}"`);
      if (relation.fields.length === 0) relation.fields.push(target.descriptor.titleField);
      relation.fields.forEach((field, i) => {
        if (!target.schema.properties?.[field] || target.schema.properties[field]!.writeOnly) {
          fail(`/relations/${name}/fields/${i}`, `"${field}" is not a readable field of "${relation.entity}"`);
        }
      });
    }
    for (const [name, computed] of Object.entries(d.computed)) {
      const counted = byName.get(computed.entity);
      if (!counted) fail(`/computed/${name}/entity`, `no entity is named "${computed.entity}"`);
      const relation = counted.descriptor.relations[computed.relation];
      if (!relation || relation.entity !== d.name) {
        fail(`/computed/${name}/relation`, `"${computed.relation}" is not a relation of "${computed.entity}" pointing at "${d.name}"`);
      }
    }
    const displays = [
      ...d.list.columns.map((c, i) => ({ c, at: `/list/columns/${i}` })),
      ...d.detail.sections.flatMap((s, i) => s.fields.map((c, j) => ({ c, at: `/detail/sections/${i}/fields/${j}` }))),
    ];
    for (const { c, at } of displays) {
      if (c.cell !== 'relation' || !c.relation || !c.display) continue;
      if (c.display !== 'id' && !d.relations[c.relation]!.fields.includes(c.display)) {
        fail(`${at}/display`, `"${c.display}" is not among the fields relation "${c.relation}" returns`);
      }
      (c.secondary ?? []).forEach((field, i) => {
        if (field !== 'id' && !d.relations[c.relation!]!.fields.includes(field)) {
          fail(`${at}/secondary/${i}`, `"${field}" is not among the fields relation "${c.relation}" returns`);
        }
      });
    }
    d.list.filters.forEach((filter, i) => {
      const referenced = filter.input === 'reference' ? Object.values(d.relations).find((r) => r.field === filter.field) : undefined;
      const targetOf = referenced && byName.get(referenced.entity);
      for (const [key, name] of Object.entries(filter.optionFields ?? {})) {
        const property = targetOf?.schema.properties?.[name];
        if (targetOf && (!property || property.writeOnly)) {
          fail(`/list/filters/${i}/optionFields/${key}`, `"${name}" is not a readable field of "${targetOf.descriptor.name}"`);
        }
      }
      const [relationName, field] = filter.field.split('.');
      if (!field) return;
      const target = byName.get(d.relations[relationName!]!.entity)!;
      const property = target.schema.properties?.[field];
      if (!property) fail(`/list/filters/${i}/field`, `"${field}" is not a field of "${target.descriptor.name}"`);
      if (filter.operator === 'ilike' && !isTextual(property)) fail(`/list/filters/${i}/operator`, `ilike needs a text field; "${filter.field}" is not`);
    });
  });
}
