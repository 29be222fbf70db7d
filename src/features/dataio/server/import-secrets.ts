import { AppError, runBeforeWrite, validateWriteBody } from '../../../server/index.js';
import type { JsonSchema, LoadedEntity } from '../../../shared/descriptor/types.js';
import { timeSlicer } from './import-file.js';
import {
  cellValue,
  coveredFields,
  guessMapping,
  importConfigOf,
  SEALED_MARK,
  type SealedRow,
  type SecretColumns,
  SEALED_TOKEN as TOKEN,
} from './import-rows.js';
import type { EntityDb } from './tables.js';

/**
 * Write-only fields (passwords) never reach an import job's row in clear text. At upload, the
 * columns whose header names a write-only import field are "sealed": each row's secret cells are
 * checked by the form's validator and run through the entity's write hooks (the password becomes
 * its scrypt hash) right away, and only the outcome is kept, as a token in the row's first sealed
 * cell (`sealed:` + base64url JSON of the field errors `e` or the derived values `d`, such as
 * `password_hash`); the other sealed cells keep only the mark {@link SEALED_MARK}. The clear text
 * lives in this request's memory only. Previews and reports show a sealed cell as
 * {@link MASK}. A write-only field may be mapped only from its own sealed column.
 */

/** How a sealed cell with a value is shown (previews, samples, reports). */
export const MASK = '********';
/** Rows whose hooks run at once: libuv's four threads hash. */
const HOOKS_AT_ONCE = 4;

/** The import fields of the entity that are write-only. */
export function writeOnlyFields(entity: LoadedEntity): string[] {
  const props = entity.schema.properties ?? {};
  return importConfigOf(entity).fields.filter((field) => props[field]?.writeOnly === true);
}

/** The columns to seal: those whose header the guessed mapping gives a write-only field. */
export function secretColumnsOf(entity: LoadedEntity, headers: readonly string[]): Map<number, string> {
  const secret = new Set(writeOnlyFields(entity));
  const columns = new Map<number, string>();
  guessMapping(entity, headers).forEach((field, column) => {
    if (field && secret.has(field)) columns.set(column, field);
  });
  return columns;
}

/** The stored form of secret columns (`{"3": "password"}`), and back. */
export const secretColumnsJson = (columns: SecretColumns) => JSON.stringify(Object.fromEntries(columns));
export function secretColumnsFrom(value: unknown): Map<number, string> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  const columns = new Map<number, string>();
  if (parsed && typeof parsed === 'object') for (const [column, field] of Object.entries(parsed)) columns.set(Number(column), String(field));
  return columns;
}

/** A row's cells with every sealed cell that had a value shown as {@link MASK}. */
export function maskValues(values: readonly string[], columns: SecretColumns): string[] {
  if (columns.size === 0) return [...values];
  return values.map((value, column) => (columns.has(column) ? (value === '' ? '' : MASK) : value));
}

/** The body schema of the sealed fields alone (required as the entity says). */
function partialSchema(entity: LoadedEntity, fields: readonly string[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const property = { ...(entity.schema.properties?.[field] ?? {}) };
    delete property.readOnly;
    properties[field] = property;
  }
  const required = (entity.schema.required ?? []).filter((field) => fields.includes(field));
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Seals the secret columns of a parsed table in place (see the module's comment) and answers the
 * rows, now as they may be stored. Hooks run at most {@link HOOKS_AT_ONCE} at once; the loop
 * yields every few ms.
 */
export async function sealRows(entity: LoadedEntity, headers: readonly string[], rows: string[][], columns: SecretColumns, db: EntityDb): Promise<string[][]> {
  return createSealer(entity, headers, columns, db)(rows);
}

/**
 * The sealing of one upload, for its rows as they are read, a batch at a time (see
 * {@link sealRows}): what every batch shares (the sealed fields, their schema) is worked out once.
 */
export function createSealer(
  entity: LoadedEntity,
  headers: readonly string[],
  columns: SecretColumns,
  db: EntityDb,
): (rows: string[][]) => Promise<string[][]> {
  if (columns.size === 0) return async (rows) => rows;
  const props = entity.schema.properties ?? {};
  const order = [...columns.keys()].sort((a, b) => a - b);
  const first = order[0]!;
  const sealedFields = order.map((column) => columns.get(column)!);
  const mapped = new Set(guessMapping(entity, headers).filter((field): field is string => field !== null));
  const covered = coveredFields(entity, sealedFields, mapped);
  const schema = partialSchema(entity, covered);
  return (rows) => sealBatch(entity, rows, { columns, order, first, covered, schema, props }, db);
}

/** Seals one batch of rows in place (see {@link createSealer}). */
async function sealBatch(
  entity: LoadedEntity,
  rows: string[][],
  plan: { columns: SecretColumns; order: number[]; first: number; covered: string[]; schema: JsonSchema; props: Record<string, JsonSchema> },
  db: EntityDb,
): Promise<string[][]> {
  const { columns, order, first, covered, schema, props } = plan;
  const pause = timeSlicer();
  let active = 0;
  const waiting: Array<() => void> = [];
  let failure: unknown;
  let drained: (() => void) | undefined;
  for (let i = 0; i < rows.length; i++) {
    // Sealed in place: the parsed rows are this upload's own, and a copy of 200,000 rows would double them.
    const row = rows[i]!;
    const partial: Record<string, unknown> = {};
    let any = false;
    for (const column of order) {
      const text = row[column] ?? '';
      row[column] = text.trim() === '' ? '' : SEALED_MARK;
      if (text.trim() !== '') any = true;
      partial[columns.get(column)!] = cellValue(props[columns.get(column)!], text);
    }
    if (!any) {
      row[first] = '';
      continue;
    }
    for (const field of covered) if (!(field in partial)) copyCompared(entity, partial, field);
    let data: Record<string, unknown>;
    try {
      data = validateWriteBody(entity, partial, 'create', schema);
    } catch (error) {
      if (!(error instanceof AppError) || !error.errors) throw error;
      row[first] = tokenOf({ e: error.errors });
      await pause();
      continue;
    }
    if (active >= HOOKS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
    if (failure) break;
    active++;
    // Not kept in a list: 200,000 settled promises would outweigh the rows.
    runBeforeWrite({ entity, operation: 'create', data, db, bulk: true })
      .then(
        () => {
          const derived = Object.fromEntries(Object.entries(data).filter(([field]) => !covered.includes(field)));
          row[first] = tokenOf({ d: derived });
        },
        (error: unknown) => {
          failure ??= error;
        },
      )
      .finally(() => {
        active--;
        const next = waiting.shift();
        if (next) next();
        else if (active === 0) drained?.();
      });
    await pause();
  }
  if (active > 0) await new Promise<void>((resolve) => (drained = resolve));
  if (failure) throw failure;
  return rows;
}

function copyCompared(entity: LoadedEntity, partial: Record<string, unknown>, field: string) {
  const rule = entity.descriptor.comparisons.find((r) => r.operator === 'eq' && r.field === field && r.other in partial);
  if (rule) partial[field] = partial[rule.other];
}

const tokenOf = (sealed: SealedRow) => `${TOKEN}${Buffer.from(JSON.stringify(sealed), 'utf8').toString('base64url')}`;

/** Fixes as they may be stored: without the write-only fields (typed passwords stay in memory). */
export function storableFixes(entity: LoadedEntity, fixes: Record<string, Record<string, string>>): Record<string, Record<string, string>> {
  const secret = new Set(writeOnlyFields(entity));
  const out: Record<string, Record<string, string>> = {};
  for (const [row, values] of Object.entries(fixes)) {
    const kept = Object.fromEntries(Object.entries(values).filter(([field]) => !secret.has(field)));
    if (Object.keys(kept).length > 0) out[row] = kept;
  }
  return out;
}

/** Refuses a mapping that maps a write-only field from a column that was not sealed for it, or a sealed column to another field. */
export function checkSecretMapping(entity: LoadedEntity, mapping: readonly (string | null)[], columns: SecretColumns): void {
  const secret = new Set(writeOnlyFields(entity));
  mapping.forEach((field, column) => {
    if (field === null) return;
    const sealedFor = columns.get(column);
    if (sealedFor !== undefined ? sealedFor !== field : secret.has(field)) {
      throw new AppError(
        400,
        'BAD_REQUEST',
        `Column ${column + 1} cannot be mapped to ${field}: a write-only field is read only from a column headed with its name.`,
        [{ path: 'mapping', keyword: 'secret', messageKey: 'dataio.import.errors.secret_column', params: { column: column + 1 } }],
      );
    }
  });
}
