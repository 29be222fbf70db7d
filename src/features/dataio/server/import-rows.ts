import { AppError, badRequest, translate, validateWriteBody } from '../../../server/index.js';
import type { FieldError } from '../../../shared/api-contract.js';
import { fieldKind } from '../../../shared/descriptor/schema-fields.js';
import type { ImportConfig, JsonSchema, LoadedEntity } from '../../../shared/descriptor/types.js';
import { messageKeyFor } from '../../../shared/field-errors.js';
import { fieldLabelKey, LANGUAGES } from './export-rows.js';

/** Column index → field name (`null`: the column is not imported). */
export type ImportMapping = Array<string | null>;
/** Corrections typed in the preview: row number (1 = first data row) → field → value. */
export type ImportFixes = Record<string, Record<string, string>>;

/** One row checked: its body for the write, or its field errors. */
export interface CheckedRow {
  row: number;
  data?: Record<string, unknown>;
  /** The stored record's id when the row updates by key. */
  id?: number;
  errors: FieldError[];
  /** Values sealing derived at upload (the password's hash), written with `data` after the hooks. */
  derived?: Record<string, unknown>;
}

/** Column index → the write-only field its cells were sealed for at upload (see import-secrets.ts). */
export type SecretColumns = ReadonlyMap<number, string>;
/** The prefix of a row's sealed token (in its first sealed column). */
export const SEALED_TOKEN = 'sealed:';
/** A sealed cell that had a value (its outcome is in the row's token). */
export const SEALED_MARK = 'sealed:';

/** What sealing gave for one row: field errors, or the values the hooks derived (e.g. `password_hash`). */
export interface SealedRow {
  e?: FieldError[];
  d?: Record<string, unknown>;
}

/** A row's token (in its first sealed column), decoded; undefined when the row had no secret. */
export function sealedOf(values: readonly string[], columns: SecretColumns): SealedRow | undefined {
  if (columns.size === 0) return undefined;
  const cell = values[Math.min(...columns.keys())] ?? '';
  if (!cell.startsWith(SEALED_TOKEN) || cell.length === SEALED_TOKEN.length) return undefined;
  try {
    return JSON.parse(Buffer.from(cell.slice(SEALED_TOKEN.length), 'base64url').toString('utf8')) as SealedRow;
  } catch {
    return undefined;
  }
}

/** The write-only fields an eq comparison copies from a sealed field when the file has no column for them (the confirmation), with the sealed ones. */
export function coveredFields(entity: LoadedEntity, sealed: readonly string[], mapped: ReadonlySet<string>): string[] {
  const covered = [...sealed];
  for (const rule of entity.descriptor.comparisons) {
    if (rule.operator === 'eq' && sealed.includes(rule.other) && !mapped.has(rule.field) && !covered.includes(rule.field)) covered.push(rule.field);
  }
  return covered;
}

/** The row-level error of a row with NUL characters (a file saved in another encoding, or binary). */
const nulError: FieldError = { path: '', keyword: 'encoding', messageKey: 'dataio.import.errors.nul_row', params: {} };

/** The import block of an importable entity; 404 for any other. */
export function importConfigOf(entity: LoadedEntity | undefined): ImportConfig {
  if (!entity?.descriptor.import) throw new AppError(404, 'NOT_FOUND', 'This entity cannot be imported.');
  return entity.descriptor.import;
}

const normalise = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

/**
 * Guesses which field each column holds, by its header: the field's name (`job_title`, `Job
 * title`), or its label in English, Indonesian or Malay ('Kata sandi' → password). Each field is
 * taken once; unknown headers map to nothing.
 */
export function guessMapping(entity: LoadedEntity, headers: readonly string[]): ImportMapping {
  const config = importConfigOf(entity);
  const names = new Map<string, string>();
  for (const field of config.fields) {
    names.set(normalise(field), field);
    for (const language of LANGUAGES) {
      const label = translate(language, fieldLabelKey(entity, field));
      if (!label.includes('.')) names.set(normalise(label), field);
    }
  }
  const taken = new Set<string>();
  return headers.map((header) => {
    const field = names.get(normalise(header));
    if (!field || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/** Checks a mapping sent by the client: one entry per column, import fields only, each once. */
export function checkMapping(entity: LoadedEntity, mapping: unknown, columns: number): ImportMapping {
  const config = importConfigOf(entity);
  if (!Array.isArray(mapping) || mapping.length !== columns) throw badRequest(`The mapping must have one entry per column (${columns}).`);
  const seen = new Set<string>();
  for (const field of mapping) {
    if (field === null || field === '') continue;
    if (typeof field !== 'string' || !config.fields.includes(field)) throw badRequest(`The mapping names a field that cannot be imported: ${String(field)}.`);
    if (seen.has(field)) throw badRequest(`The mapping maps two columns to ${field}.`);
    seen.add(field);
  }
  return mapping.map((field) => (field === '' ? null : (field as string | null)));
}

/** Checks the preview's corrections: row numbers to import fields to short texts. */
export function checkFixes(entity: LoadedEntity, fixes: unknown, rows: number): ImportFixes {
  if (fixes === undefined || fixes === null) return {};
  const config = importConfigOf(entity);
  if (typeof fixes !== 'object' || Array.isArray(fixes)) throw badRequest('The fixes must be an object.');
  const clean: ImportFixes = {};
  for (const [row, values] of Object.entries(fixes as Record<string, unknown>)) {
    const n = Number(row);
    if (!/^[1-9]\d*$/.test(row) || n > rows || !values || typeof values !== 'object') throw badRequest(`The fixes name a row that is not in the file: ${row}.`);
    clean[row] = {};
    for (const [field, value] of Object.entries(values as Record<string, unknown>)) {
      if (!config.fields.includes(field) || typeof value !== 'string' || value.length > 10_000) throw badRequest(`The fix of row ${row} is not valid.`);
      clean[row]![field] = value;
    }
  }
  return clean;
}

const TRUE = new Set(['true', '1', 'yes', 'y', 'ya', 'active', 'aktif', 'x']);
const FALSE = new Set(['false', '0', 'no', 'n', 'tidak', 'inactive', 'tidak aktif', 'nonaktif', 'tidak aktif']);

/**
 * A cell's text as the value a form would send for the field: numbers for number fields,
 * true/false (also yes/no, ya/tidak, active/inactive) for booleans, JSON for objects. A value that
 * cannot be converted stays text, so the validator reports it with the form's message.
 */
export function cellValue(property: JsonSchema | undefined, text: string, labels?: ReadonlyMap<string, unknown>): unknown {
  if (!property) return text;
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const named = labels?.get(normalise(trimmed));
  if (named !== undefined) return named;
  const kind = fieldKind(property);
  if (kind === 'json' && property.items && baseItemType(property.items) === 'integer' && /^\d+(\s*[,;]\s*\d+)*$/.test(trimmed)) {
    return trimmed.split(/[,;]/).map((part) => Number(part.trim()));
  }
  if ((kind === 'integer' || kind === 'number' || kind === 'bigint') && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (kind === 'boolean') {
    const lower = trimmed.toLowerCase();
    if (TRUE.has(lower)) return true;
    if (FALSE.has(lower)) return false;
  }
  if (kind === 'json' && trimmed.length <= 10_000) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return trimmed;
    }
  }
  return text;
}

const baseItemType = (items: unknown) => {
  const type = (items as JsonSchema | undefined)?.type;
  return Array.isArray(type) ? type.find((t) => t !== 'null') : type;
};

/**
 * The values a cell may name by a label, by field: each enum value (and each value of an integer
 * field with a small enumerated range) by its code in any case and its label in English,
 * Indonesian and Malay (`entities.<name>.enum.<field>.<value>`, else `common.status.<value>`), so
 * 'Malaysia', 'malaysia' and 'MY' all give `MY`. Accents, case and punctuation are ignored.
 */
export function enumLabels(entity: LoadedEntity, fields: readonly string[]): Map<string, Map<string, unknown>> {
  const byField = new Map<string, Map<string, unknown>>();
  for (const field of fields) {
    const property = entity.schema.properties?.[field];
    const values = Array.isArray(property?.enum) ? (property.enum as unknown[]) : undefined;
    if (!values) continue;
    const labels = new Map<string, unknown>();
    for (const value of values) {
      if (value === null) continue;
      labels.set(normalise(String(value)), value);
      for (const language of LANGUAGES) {
        for (const key of [`entities.${entity.descriptor.name}.enum.${field}.${String(value)}`, `common.status.${String(value)}`]) {
          const label = translate(language, key);
          if (label !== key && !labels.has(normalise(label))) labels.set(normalise(label), value);
        }
      }
    }
    labels.delete('');
    byField.set(field, labels);
  }
  return byField;
}

/** What checking rows needs: the entity, its import schema, and the key's stored ids. */
export interface RowChecker {
  check(values: readonly string[], row: number, fixes: Record<string, string> | undefined): CheckedRow;
  /** The row's key value (lower-cased text), if the import updates by key and the row has one. */
  keyOf(values: readonly string[], fixes: Record<string, string> | undefined): string | undefined;
}

/**
 * Builds the row checker of one import: each row becomes the body a form would send (mapped
 * cells converted, preview fixes applied, a comparison's missing side copied from the other, as
 * the password confirmation), then goes through the very validator the forms' API uses, giving
 * the same message keys. A row whose key names a stored record (`existing`) is checked as an edit
 * of that record (the stored values fill the edit form's fields the file leaves out); a key seen
 * earlier in the file is a duplicate.
 */
export function createRowChecker(
  entity: LoadedEntity,
  mapping: ImportMapping,
  existing: ReadonlyMap<string, { id: number; record: Record<string, unknown> }>,
  secretColumns: SecretColumns = new Map(),
): RowChecker {
  const config = importConfigOf(entity);
  const d = entity.descriptor;
  const props = entity.schema.properties ?? {};
  const mapped = new Set(mapping.filter((field): field is string => field !== null));
  const writable = config.fields.filter((field) => !props[field]?.readOnly);
  const createSchema = importSchema(entity, writable);
  const editFields = d.forms.edit.fields;
  const seenKeys = new Set<string>();
  const labels = enumLabels(entity, config.fields);
  const bodyOf = (values: readonly string[], fixes: Record<string, string> | undefined) => {
    const body: Record<string, unknown> = {};
    mapping.forEach((field, column) => {
      if (field !== null && !secretColumns.has(column)) body[field] = cellValue(props[field], values[column] ?? '', labels.get(field));
    });
    for (const [field, value] of Object.entries(fixes ?? {})) body[field] = cellValue(props[field], value, labels.get(field));
    for (const rule of d.comparisons) {
      if (rule.operator === 'eq' && !mapped.has(rule.field) && !(fixes && rule.field in fixes) && rule.other in body) body[rule.field] = body[rule.other];
    }
    return body;
  };
  const keyOf = (body: Record<string, unknown>) => {
    if (!config.key) return undefined;
    const value = body[config.key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;
  };
  return {
    keyOf: (values, fixes) => keyOf(bodyOf(values, fixes)),
    check(values, row, fixes) {
      const body = bodyOf(values, fixes);
      const key = keyOf(body);
      const errors: FieldError[] = [];
      if (values.some((value) => value.includes('\u0000'))) errors.push(nulError);
      // Sealed fields (mapped, with a value, not retyped in a fix) are not in the body: their
      // check and their derived values come from the row's token.
      const sealed: string[] = [];
      mapping.forEach((field, column) => {
        if (field !== null && secretColumns.get(column) === field && (values[column] ?? '') !== '' && !(fixes && field in fixes)) sealed.push(field);
      });
      const relaxed = sealed.length > 0 ? coveredFields(entity, sealed, new Set([...mapped, ...Object.keys(fixes ?? {})])) : [];
      const token = relaxed.length > 0 ? sealedOf(values, secretColumns) : undefined;
      const retyped = secretColumns.size > 0 && [...secretColumns.values()].some((field) => fixes && field in fixes);
      const tokenErrors = (update: boolean) => (token?.e ?? []).filter((error) => relaxed.includes(error.path) && !(update && error.keyword === 'required'));
      const derived = token?.d && !retyped ? token.d : undefined;
      if (key !== undefined) {
        if (seenKeys.has(key)) errors.push({ path: config.key!, keyword: 'unique', messageKey: messageKeyFor(d.messages, config.key!, 'unique'), params: {} });
        seenKeys.add(key);
      }
      const stored = key === undefined ? undefined : existing.get(key);
      try {
        if (stored) {
          const edit: Record<string, unknown> = {};
          for (const field of editFields) if (field in stored.record) edit[field] = stored.record[field];
          for (const field of editFields) if (field in body) edit[field] = body[field];
          errors.push(...tokenErrors(true));
          const data = validateWriteBody(entity, edit, 'update');
          return { row, id: stored.id, data, errors, ...(derived ? { derived } : {}) };
        }
        if (config.key && props[config.key]?.readOnly) delete body[config.key];
        errors.push(...tokenErrors(false));
        const data = validateWriteBody(entity, body, 'create', relaxed.length > 0 ? importSchema(entity, writable, relaxed) : createSchema);
        return errors.length > 0 ? { row, errors } : { row, data, errors, ...(derived ? { derived } : {}) };
      } catch (error) {
        if (error instanceof AppError && error.errors) return { row, errors: [...errors, ...error.errors] };
        throw error;
      }
    },
  };
}

const importSchemas = new WeakMap<LoadedEntity, Map<string, JsonSchema>>();

/**
 * The body schema of an imported row: the import's writable fields, required as the entity says;
 * without the `relaxed` fields (sealed at upload: checked then, absent from the body now).
 */
function importSchema(entity: LoadedEntity, all: readonly string[], relaxed: readonly string[] = []): JsonSchema {
  let byRelaxed = importSchemas.get(entity);
  if (!byRelaxed) importSchemas.set(entity, (byRelaxed = new Map()));
  const cacheKey = [...relaxed].sort().join(',');
  let schema = byRelaxed.get(cacheKey);
  if (!schema) {
    const fields = all.filter((field) => !relaxed.includes(field));
    const properties: Record<string, JsonSchema> = {};
    for (const field of fields) {
      const property = { ...(entity.schema.properties?.[field] ?? {}) };
      delete property.readOnly;
      properties[field] = property;
    }
    const required = (entity.schema.required ?? []).filter((field) => fields.includes(field));
    schema = { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
    byRelaxed.set(cacheKey, schema);
  }
  return schema;
}
