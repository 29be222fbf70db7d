import { type EntityRegistry, recordSchema } from '../../../server/index.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';

/**
 * The request and response schemas of history's routes. The answers are serialised from them (a
 * field not listed here never leaves the server) and `GET /api/openapi.json` documents them. The
 * query parameters are read by hand (query-params.ts: blank as absent, each error naming its
 * parameter), so these routes document them with {@link validatedByHandler} instead of having
 * Fastify validate them.
 */

type Schema = Record<string, unknown>;

const TAGS = ['history'];
const MAX_PER_PAGE = 100;

/** Leaves a request part as it came: the handler checks it (against what these schemas document). */
export const validatedByHandler = () => (value: unknown) => ({ value });

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

const integer = { type: 'integer' };
const text = { type: 'string' };
const textOrNull = { type: ['string', 'null'] };
const time = { type: 'string', format: 'date-time' };

/** The route's schema: OpenAPI tags and summary, the request parts, the success answers. */
export const route = (summary: string, parts: { params?: Schema; querystring?: Schema; body?: Schema; response: Record<number, Schema> }): Schema => ({
  tags: TAGS,
  summary,
  ...parts,
});

/** A path's record id, documented as text: the handler applies the shared rule and answers 400 'Invalid <entity> ID' otherwise. */
export const recordParams = (label: string): Schema =>
  object({ id: { type: 'string', description: `The ${label}'s id: a positive whole number; anything else is a 400 'Invalid ${label} ID'.` } }, ['id']);
export const trashItemParams = object({ id: { type: 'string', description: "The trash item's id; anything else is a 400 'Invalid trash item ID'." } }, ['id']);

const paging = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'Page number, from 1.' },
  per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, description: 'Rows per page (at most 100).' },
};
const meta = object({ current_page: integer, per_page: integer, total: integer, last_page: integer });

/** One audit row with who wrote it. */
const auditEntry = object({
  id: integer,
  created_at: time,
  action: text,
  entity: textOrNull,
  entity_id: textOrNull,
  ip: textOrNull,
  changes: { description: 'The changed fields: `{field: {before, after}}` (secrets never).' },
  details: { description: 'Facts of the action (an object).' },
  user: { type: ['object', 'null'], additionalProperties: false, properties: { id: integer, name: textOrNull, email: textOrNull } },
});
const auditPage = object({ data: arrayOf(auditEntry), meta });

export const historyQuery = object(paging);
export const historyAnswer = auditPage;

export const restoreAnswer = (entity: LoadedEntity, registry: EntityRegistry): Schema => object({ data: recordSchema(entity, registry) as Schema });

export const auditQuery = object({
  ...paging,
  user_id: { type: 'integer', minimum: 1, description: 'Rows written by this account.' },
  entity: { type: 'string', maxLength: 100 },
  entity_id: { type: 'string', maxLength: 20, description: "The record's id (with entity)." },
  action: { type: 'string', maxLength: 100 },
  from: { type: 'string', maxLength: 40, description: 'A date or date-time: rows at or after it.' },
  to: { type: 'string', maxLength: 40, description: 'A date or date-time: rows before it.' },
  format: { type: 'string', enum: ['json', 'csv'], default: 'json', description: 'csv: the matching rows (the newest 100,000) as a file.' },
});
export const auditAnswer: Schema = {
  description: 'A page of the audit log, or (format=csv) the matching rows as CSV.',
  content: { 'application/json': { schema: auditPage }, 'text/csv': { schema: { type: 'string' } } },
};

export const trashQuery = object({ ...paging, entity: { type: 'string', maxLength: 100, description: "Only this entity's deleted records." } });
export const trashAnswer = object({
  data: arrayOf(
    object({
      id: integer,
      entity: text,
      endpoint: textOrNull,
      record_id: integer,
      title: textOrNull,
      deleted_at: time,
      expires_at: time,
      deleted_by: { type: ['object', 'null'], additionalProperties: false, properties: { id: integer, name: textOrNull } },
    }),
  ),
  meta,
});
export const deletedAnswer = object({ data: object({ deleted: { ...integer, description: 'How many trash items were deleted for good.' } }) });
