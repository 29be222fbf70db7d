import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { storedFields } from '../operations/context.js';
import type { AuditChanges } from './audit-chain.js';

const SECRET_WORDS = /(^|_)(password|passwd|secret|hash|token|totp|otp|recovery_codes?)(_|$)/i;

/** A field the audit never records: write-only in its schema, or named like a secret. */
export function isSecretField(field: string, property?: { writeOnly?: boolean }): boolean {
  return Boolean(property?.writeOnly) || SECRET_WORDS.test(field);
}

const MANAGED = new Set(['id', 'created_at', 'updated_at']);

const plain = (value: unknown) => (value === undefined ? null : value instanceof Date ? value.toISOString() : value);
const same = (a: unknown, b: unknown) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

/**
 * The fields that differ between two versions of a record (`before` null for a create, `after`
 * null for a delete), leaving out secret fields and the ones the database keeps (id, timestamps).
 */
export function diffRecords(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  fields: readonly string[] = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])],
  isSecret: (field: string) => boolean = (field) => isSecretField(field),
): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of fields) {
    if (MANAGED.has(field) || isSecret(field)) continue;
    const a = before ? plain(before[field]) : null;
    const b = after ? plain(after[field]) : null;
    if (before && after && same(a, b)) continue;
    if (!before && b === null) continue;
    if (!after && a === null) continue;
    changes[field] = { before: a, after: b };
  }
  return changes;
}

/** {@link diffRecords} over an entity's stored fields, its write-only fields never. */
export function entityChanges(entity: LoadedEntity, before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChanges {
  const props = entity.schema.properties ?? {};
  return diffRecords(before, after, storedFields(entity), (field) => isSecretField(field, props[field]));
}

/** `details` without secret-named text values (a caller's slip must not land in the log). */
export function withoutSecrets(details: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!details) return null;
  return Object.fromEntries(Object.entries(details).filter(([key, value]) => !(typeof value === 'string' && isSecretField(key))));
}
