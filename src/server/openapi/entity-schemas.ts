import { fieldKind, isNullable } from '../../shared/descriptor/schema-fields.js';
import type { Action, JsonSchema, ListFilter, LoadedEntity } from '../../shared/descriptor/types.js';
import { type EntityRegistry, readableFields } from '../operations/context.js';
import { MAX_FIELDS_TEXT } from '../operations/list-query.js';
import { ERROR_SCHEMA } from './error-schema.js';

/** The largest `per_page` and the longest text filter or search the list accepts (operations/list-query.ts). */
const MAX_PER_PAGE = 100;
const MAX_TEXT = 200;
const MAX_ID = 2_147_483_647;

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const MANAGED = new Set(['id', 'created_at', 'updated_at']);
const KEYWORDS_DROPPED = ['$id', '$schema', 'default'];
// The keywords whose value is a subschema or an array of them, and those whose value maps names to
// subschemas: a response schema is walked through these only. Every other keyword's value (`enum`,
// `const`, sample values...) is data and is kept as it is.
const SUBSCHEMA_KEYWORDS = new Set([
  'items',
  'additionalItems',
  'prefixItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'propertyNames',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SUBSCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions']);

/** A schema that also allows `null` (type and enum), for a column that may be NULL. */
function withNull(schema: JsonSchema): JsonSchema {
  if (isNullable(schema)) return schema;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const copy: JsonSchema = { ...schema };
  if (types.length) copy.type = [...types, 'null'];
  if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...copy.enum, null];
  return copy;
}

/**
 * A property as a response carries it. Nested `required` lists are dropped: the serialiser
 * refuses an object without them, and a JSON column written before a schema change may lack one.
 * An object that does not forbid other keys keeps them (JSON Schema's default; the serialiser's
 * default would drop them).
 */
function responseProperty(property: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'required' || KEYWORDS_DROPPED.includes(key)) continue;
      if (SUBSCHEMA_KEYWORDS.has(key)) out[key] = Array.isArray(value) ? value.map(walk) : walk(value);
      else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && value && typeof value === 'object') {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, walk(inner)]));
      } else out[key] = value;
    }
    const isObject = [out.type].flat().includes('object');
    if (isObject && out.additionalProperties === undefined) out.additionalProperties = true;
    return out;
  };
  return walk(clone(property)) as JsonSchema;
}

/** Whether the column of a field may hold NULL (as the table sync creates it). */
function columnNullable(entity: LoadedEntity, field: string, property: JsonSchema): boolean {
  if (MANAGED.has(field)) return false;
  return isNullable(property) || !(entity.schema.required ?? []).includes(field);
}

/** The fields of a related record an `include` attaches: its id and the relation's fields. */
function includedSchema(target: LoadedEntity, fields: readonly string[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of ['id', ...fields]) {
    if (Object.hasOwn(target.descriptor.computed, field)) properties[field] = { type: 'integer', readOnly: true };
    else if (readableFields(target).includes(field)) properties[field] = fieldSchema(target, field);
  }
  return { type: ['object', 'null'], additionalProperties: false, properties };
}

function fieldSchema(entity: LoadedEntity, field: string): JsonSchema {
  const property = entity.schema.properties![field]!;
  const schema = responseProperty(property);
  return columnNullable(entity, field, property) ? withNull(schema) : schema;
}

/**
 * A record as the API returns it: every readable stored field (write-only and virtual fields never
 * leave the server), each computed count, and each relation an `include` may attach (present only
 * when asked for). Nullable wherever the column is.
 */
export function recordSchema(entity: LoadedEntity, registry: EntityRegistry): JsonSchema {
  const d = entity.descriptor;
  const properties: Record<string, JsonSchema> = {};
  for (const field of readableFields(entity)) properties[field] = fieldSchema(entity, field);
  for (const field of Object.keys(d.computed))
    properties[field] = { type: 'integer', readOnly: true, description: `Number of ${d.computed[field]!.entity} records pointing here.` };
  for (const name of d.includes) {
    const relation = d.relations[name]!;
    const target = registry.byName.get(relation.entity);
    if (target) properties[name] = { ...includedSchema(target, relation.fields), description: `The related ${target.descriptor.label}, with include=${name}.` };
  }
  return {
    type: 'object',
    additionalProperties: false,
    required: [...readableFields(entity), ...Object.keys(d.computed)],
    properties,
  };
}

/** The value schema of one list filter, as its query parameter is written. */
function filterSchema(entity: LoadedEntity, registry: EntityRegistry, filter: ListFilter): JsonSchema {
  if (filter.values) return { type: 'string', enum: Object.keys(filter.values) };
  const [first, second] = filter.field.split('.') as [string, string | undefined];
  const owner = second === undefined ? entity : registry.byName.get(entity.descriptor.relations[first]!.entity)!;
  const property = owner.schema.properties![second ?? first]!;
  const kind = fieldKind(property);
  switch (kind) {
    case 'integer':
    case 'bigint':
      return { type: 'integer', ...(typeof property.minimum === 'number' ? { minimum: property.minimum } : {}) };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return filter.operator === 'eq'
        ? { type: 'string', enum: (property.enum as unknown[]).filter((v) => v !== null) }
        : { type: 'string', maxLength: MAX_TEXT };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'date-time':
      return { type: 'string', format: 'date-time' };
    default:
      return { type: 'string', maxLength: MAX_TEXT };
  }
}

const OPERATOR_TEXT: Record<ListFilter['operator'], string> = {
  eq: 'equal to',
  ilike: 'containing (case-insensitive)',
  gte: 'on or after / at least',
  lte: 'on or before / at most',
};

/**
 * The list endpoint's query parameters (operations/list-query.ts checks them): paging, the allowed
 * sorts, search when the descriptor has search fields, includes and each filter. Any other
 * parameter is a 400.
 */
export function listQuerySchema(entity: LoadedEntity, registry: EntityRegistry): JsonSchema {
  const d = entity.descriptor;
  const sorts = [...new Set([...d.list.sorts, d.list.defaultSort.field])];
  const properties: Record<string, JsonSchema> = {
    page: { type: 'integer', minimum: 1, default: 1, description: 'Page number, from 1.' },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: d.list.pageSize, description: 'Records per page.' },
    sort: { type: 'string', enum: sorts, default: d.list.defaultSort.field, description: 'Field to sort by (ties broken by id).' },
    direction: {
      type: 'string',
      enum: ['asc', 'desc'],
      description: `Sort direction; asc when a sort is given without one, else ${d.list.defaultSort.direction}.`,
    },
  };
  if (d.list.search.length > 0) {
    properties.search = { type: 'string', maxLength: MAX_TEXT, description: `Case-insensitive substring of ${d.list.search.join(', ')}.` };
  }
  if (d.includes.length > 0) {
    properties.include = { type: 'string', maxLength: MAX_TEXT, description: `Comma-separated relations to attach: ${d.includes.join(', ')}.` };
  }
  const readable = [...readableFields(entity), ...Object.keys(d.computed)];
  properties.fields = {
    type: 'string',
    maxLength: MAX_FIELDS_TEXT,
    description: `Comma-separated fields each record holds (id always; all when absent): ${readable.join(', ')}.`,
  };
  for (const name of d.includes) {
    const fields = ['id', ...d.relations[name]!.fields];
    properties[`fields[${name}]`] = {
      type: 'string',
      maxLength: MAX_FIELDS_TEXT,
      description: `Comma-separated fields the included ${name} holds (id always; all when absent): ${fields.join(', ')}.`,
    };
  }
  for (const filter of d.list.filters) {
    properties[filter.param] = {
      ...filterSchema(entity, registry, filter),
      description: `Records whose ${filter.field} is ${OPERATOR_TEXT[filter.operator]} this value; blank is ignored.`,
    };
  }
  return { type: 'object', additionalProperties: false, properties };
}

const idParams = (entity: LoadedEntity): JsonSchema => ({
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_ID,
      description: `The ${entity.descriptor.label}'s id; anything else is a 400 'Invalid ${entity.descriptor.label} ID'.`,
    },
  },
});

/** The `include` parameter of a read. */
const readQuery = (entity: LoadedEntity): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: entity.descriptor.includes.length
    ? { include: { type: 'string', maxLength: MAX_TEXT, description: `Comma-separated relations to attach: ${entity.descriptor.includes.join(', ')}.` } }
    : {},
});

/** A write body as documented: the form's schema with no internal keywords. */
function bodySchema(schema: JsonSchema): JsonSchema {
  const copy = clone(schema);
  for (const key of ['$id', '$schema']) delete copy[key];
  return copy;
}

/**
 * The Fastify schema of one generic entity route: OpenAPI keys (tags, summary, operationId), the
 * request parts and the success responses, which Fastify serialises the answers from. The request
 * parts are validated by the operations (which trim text, treat blank as absent and use the
 * descriptor's messages) against these same schemas, not by Fastify: see `entity-crud.ts`.
 */
export function entityRouteSchema(entity: LoadedEntity, registry: EntityRegistry, action: Action): Record<string, unknown> {
  const d = entity.descriptor;
  const label = d.label;
  const tags = [d.endpoint];
  const operationId = `${action}${d.name.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`;
  const record = recordSchema(entity, registry);
  const one = { type: 'object', additionalProperties: false, required: ['data'], properties: { data: record } };
  if (d.permissions[action].length === 0) {
    return {
      tags,
      operationId,
      summary: `Not available: no role may ${action} a ${label} (405).`,
      ...(action === 'list' || action === 'create' ? {} : { params: idParams(entity) }),
    };
  }
  switch (action) {
    case 'list':
      return {
        tags,
        operationId,
        summary: `List ${d.endpoint}: paged, sorted, searched and filtered.`,
        querystring: listQuerySchema(entity, registry),
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['data', 'meta', 'links'],
            properties: {
              // With `fields`, a record holds only the fields asked for (and its id).
              data: { type: 'array', items: { ...record, required: ['id'] } },
              meta: {
                type: 'object',
                additionalProperties: false,
                required: ['current_page', 'last_page', 'total', 'per_page'],
                properties: {
                  current_page: { type: 'integer' },
                  last_page: { type: 'integer' },
                  total: { type: 'integer' },
                  per_page: { type: 'integer' },
                },
              },
              links: {
                type: 'object',
                additionalProperties: false,
                required: ['first', 'last', 'prev', 'next'],
                properties: {
                  first: { type: 'string' },
                  last: { type: 'string' },
                  prev: { type: ['string', 'null'] },
                  next: { type: ['string', 'null'] },
                },
              },
            },
          },
        },
      };
    case 'read':
      return {
        tags,
        operationId,
        summary: `Read one ${label} (ETag header for If-Match).`,
        params: idParams(entity),
        querystring: readQuery(entity),
        response: { 200: one },
      };
    case 'create':
      return { tags, operationId, summary: `Create a ${label}.`, body: bodySchema(entity.createSchema), response: { 201: one } };
    case 'update':
      return {
        tags,
        operationId,
        summary: `Replace a ${label}'s form fields; with If-Match, only if unchanged since that ETag.`,
        params: idParams(entity),
        headers: {
          type: 'object',
          properties: {
            'if-match': {
              type: 'string',
              maxLength: 200,
              description: 'The ETag of the version this edit started from; a stale one is a 409 with the current record in `data`.',
            },
          },
        },
        body: bodySchema(entity.updateSchema),
        response: {
          200: one,
          409: {
            ...ERROR_SCHEMA,
            properties: { ...ERROR_SCHEMA.properties, data: record },
            description: 'A unique clash, or a stale If-Match (then `data` is the current record).',
          },
        },
      };
    case 'delete':
      return {
        tags,
        operationId,
        summary: `Delete a ${label} (409 while other records use it).`,
        params: idParams(entity),
        response: { 204: { type: 'null', description: 'Deleted.' } },
      };
  }
}
