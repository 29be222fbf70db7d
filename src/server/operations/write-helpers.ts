import { sql } from 'kysely';
import { fieldKind } from '../../shared/descriptor/schema-fields.js';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { messageKeyFor } from '../../shared/field-errors.js';
import { uniqueViolationField } from '../../shared/sql-text.js';
import { writeAudit } from '../auth/audit.js';
import { hashPassword, IMPORT_PARAMS } from '../auth/password.js';
import { conflict, validationFailed } from '../errors.js';
import { type HookServices, hookFor, type WriteHookInput } from '../extensions.js';

/** The server's services lent to the hooks of a write in `db` (errors, password hashing, audit). */
export function hookServices(db: WriteHookInput['db']): HookServices {
  return {
    errors: { conflict, validationFailed },
    hashPassword: (password, options) => hashPassword(password, options?.bulk ? IMPORT_PARAMS : undefined),
    audit: (entry) => writeAudit(db, entry),
  };
}

/** Runs the descriptor's `beforeWrite` hooks in order, with the server's services; they may change `input.data`. */
export async function runBeforeWrite(input: WriteHookInput): Promise<void> {
  const context = { ...input, ...hookServices(input.db) };
  for (const name of input.entity.descriptor.hooks.beforeWrite) {
    const hook = hookFor(name);
    if (!hook) throw new Error(`Unknown hook "${name}" (checked at start-up; the registry changed?)`);
    await hook.beforeWrite(context);
  }
}

// Kept by the database itself. Other read-only fields reach the table only when a hook sets them
// (a slug): the body schemas leave read-only fields out, so a request can never carry one.
const MANAGED = new Set(['id', 'created_at', 'updated_at']);

/**
 * The column values of a write: virtual fields dropped, only the schema's stored fields kept, and
 * JSON values sent as jsonb text (the pg driver would turn a JS array into a Postgres array).
 */
export function toColumnValues(entity: LoadedEntity, data: Record<string, unknown>): Record<string, unknown> {
  const props = entity.schema.properties ?? {};
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(data)) {
    const property = props[field];
    if (!property || entity.descriptor.virtual.includes(field) || MANAGED.has(field)) continue;
    values[field] = fieldKind(property) === 'json' && value !== null ? sql`${JSON.stringify(value)}::jsonb` : value;
  }
  return values;
}

/**
 * Turns a unique violation into a 409 naming the field, with the descriptor's message key
 * (`messages.<field>.unique`, else `validation.unique`). Other errors pass through.
 */
export function uniqueConflict(entity: LoadedEntity, error: unknown): unknown {
  const { code, detail } = (error ?? {}) as { code?: string; detail?: string };
  if (code !== '23505') return error;
  const field = uniqueViolationField(detail);
  const label = entity.descriptor.label;
  return conflict(field ? `Another ${label} already has this ${field}.` : `Another ${label} already has these values.`, [
    { path: field, keyword: 'unique', messageKey: messageKeyFor(entity.descriptor.messages, field, 'unique'), params: {} },
  ]);
}
