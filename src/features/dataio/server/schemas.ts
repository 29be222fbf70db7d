import { type EntityRegistry, listQuerySchema } from '../../../server/index.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { LANGUAGES } from './export-rows.js';

/**
 * The request and response schemas of data in and out's routes. The answers are serialised from
 * them (a field not listed here never leaves the server) and `GET /api/openapi.json` documents
 * them. The requests are checked by the handlers (blank as absent, their own messages, a list's
 * query parsed as the list parses it), so these routes document their request parts with
 * {@link validatedByHandler} instead of having Fastify validate them.
 */

type Schema = Record<string, unknown>;

const TAGS = ['dataio'];

/** Leaves a request part as it came: the handler checks it (against what these schemas document). */
export const validatedByHandler = () => (value: unknown) => ({ value });

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const data = (schema: Schema): Schema => object({ data: schema });
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

const integer = { type: 'integer' };
const text = { type: 'string' };
const textOrNull = { type: ['string', 'null'] };
const timeOrNull = { type: ['string', 'null'], format: 'date-time' };
const flag = { type: 'boolean' };

/** The route's schema: OpenAPI tags and summary, the request parts, the success answers. */
export const route = (summary: string, parts: { params?: Schema; querystring?: Schema; body?: Schema; response: Record<number, Schema> }): Schema => ({
  tags: TAGS,
  summary,
  ...parts,
});

/** An answer with no body (204). */
export const noContent: Schema = { type: 'null', description: 'Done; no content.' };

/** A field error, as every 4xx and a preview row carry it. */
const fieldError = object({ path: text, keyword: text, messageKey: text, params: { type: 'object', additionalProperties: true } });

/** A file answered as an attachment: CSV (UTF-8 with a byte-order mark) and, when `xlsx`, a workbook. */
export const fileAnswer = (description: string, xlsx = false): Schema => ({
  description,
  content: {
    'text/csv': { schema: { type: 'string' } },
    ...(xlsx ? { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } } } : {}),
  },
});

const lang = { type: 'string', enum: [...LANGUAGES], description: "The headers' language; Accept-Language when absent, else English." };

/**
 * A list's own query parameters (sort, direction, search, its filters) as the list documents them,
 * without paging: an export, `ids` and a saved view act on the whole filtered list.
 */
export function listFilterQuery(entity: LoadedEntity, registry: EntityRegistry, extra: Record<string, Schema> = {}): Schema {
  const list = listQuerySchema(entity, registry) as { properties: Record<string, Schema> };
  const properties: Record<string, Schema> = {};
  for (const [name, property] of Object.entries(list.properties)) {
    if (name === 'page' || name === 'per_page' || name === 'include' || name.startsWith('fields')) continue;
    properties[name] = property;
  }
  return object({ ...properties, ...extra });
}

// --- Exports ---

export const exportExtra = {
  format: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv', description: "The file's format." },
  lang,
};
export const exportAnswer = fileAnswer('The whole filtered list as a file (its size first in X-Total-Count).', true);

// --- Bulk actions ---

export const idsAnswer = data({ ...arrayOf(integer), description: "The ids of every matching record, in the list's order (at most 100,000)." });
export const bulkBody = object(
  {
    action: { type: 'string', enum: ['delete', 'set'] },
    ids: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'integer', minimum: 1 } },
    field: { type: 'string', description: 'With `set`: a field the descriptor lets set in bulk.' },
    value: { description: "With `set`: the value (a boolean, or one of the field's values)." },
  },
  ['action', 'ids'],
);
export const bulkAnswer = data(
  object({
    done: integer,
    failed: arrayOf(
      object({ id: integer, code: text, message: text, keyword: text, messageKey: text, params: { type: 'object', additionalProperties: true } }),
    ),
  }),
);

// --- Saved views ---

const view = object({
  id: integer,
  entity: text,
  name: text,
  query: text,
  shared: flag,
  user_id: integer,
  created_at: { type: 'string', format: 'date-time' },
  mine: flag,
});
export const viewsQuery = object({ entity: { type: 'string', description: 'The entity whose views to list.' } }, ['entity']);
export const viewsAnswer = data(arrayOf(view));
export const viewBody = object(
  {
    entity: text,
    name: { type: 'string', minLength: 1, maxLength: 100 },
    query: { type: 'string', maxLength: 2000, description: "The list's query string (sort, direction, search, its filters, page size)." },
    shared: flag,
  },
  ['entity', 'name'],
);
export const viewAnswer = data(view);
export const viewParams = object({ id: { type: 'string', description: "The view's id; anything else is a 400 'Invalid view ID'." } }, ['id']);

// --- Imports ---

const jobParams = object({ id: { type: 'string', description: "The import's id; anything else is a 400 'Invalid import ID'." } }, ['id']);

export { jobParams };
export const uploadQuery = object({ entity: { type: 'string', description: 'The importable entity.' }, filename: { type: 'string', maxLength: 200 } }, [
  'entity',
]);
export const uploadAnswer = data(
  object({
    id: integer,
    filename: text,
    headers: arrayOf(text),
    mapping: { ...arrayOf(textOrNull), description: 'The field each column is guessed to hold (null: not imported).' },
    total_rows: integer,
    sample: { ...arrayOf(arrayOf(text)), description: 'The first rows, as text.' },
  }),
);

/** An import job as the API shows it (`jobView`). */
const job = object({
  id: integer,
  entity: text,
  status: { type: 'string', enum: ['uploaded', 'running', 'done', 'failed', 'cancelled'] },
  mode: { type: 'string', enum: ['all', 'valid'] },
  filename: text,
  total_rows: integer,
  done_rows: integer,
  created_rows: integer,
  updated_rows: integer,
  failed_rows: integer,
  error: { ...textOrNull, description: 'A message key once failed or cancelled.' },
  created_at: { type: 'string', format: 'date-time' },
  started_at: timeOrNull,
  finished_at: timeOrNull,
  phase: { type: ['string', 'null'], enum: ['reading', 'checking', 'writing', null] },
  cancel_requested: flag,
  has_report: flag,
  rate: { ...integer, description: 'While running: rows per second.' },
  seconds_left: { type: ['integer', 'null'] },
});
export const jobsQuery = object({ entity: { type: 'string', description: 'The importable entity.' } }, ['entity']);
export const jobsAnswer = data(arrayOf(job));
export const jobAnswer = data(job);

const importMapping = {
  type: 'array',
  maxItems: 1000,
  items: { type: ['string', 'null'] },
  description: 'Per column of the file, the field it fills (null: left out).',
};
const importFixes = {
  type: 'object',
  additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
  description: 'Corrections typed in the preview: row number (1 = first data row) → field → value.',
};
export const previewBody = object({ mapping: importMapping, fixes: importFixes });
export const startBody = object({ mapping: importMapping, fixes: importFixes, mode: { type: 'string', enum: ['all', 'valid'], default: 'all' } });
export const previewAnswer = data(
  object({
    total_rows: integer,
    invalid_rows: integer,
    update_rows: integer,
    rows: arrayOf(object({ row: integer, values: arrayOf(text), errors: arrayOf(fieldError), update: flag })),
  }),
);
export const langQuery = object({ lang });
export const sampleParams = object({ entity: { type: 'string', description: 'The importable entity.' } }, ['entity']);
