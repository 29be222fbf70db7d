import type { JsonSchema } from './types.js';

/** The storage kinds a schema property maps to (one per column type). */
export type FieldKind = 'string' | 'enum' | 'date' | 'date-time' | 'integer' | 'bigint' | 'number' | 'boolean' | 'json';

/** Field names are SQL identifiers and URL parts too: lower snake_case only. */
export const FIELD_NAME = /^[a-z][a-z0-9_]*$/;

/** The schema types of a property without `null` (`["string", "null"]` → `string`). */
export function baseType(property: JsonSchema): string | undefined {
  const types = Array.isArray(property.type) ? property.type : property.type ? [property.type] : [];
  const nonNull = types.filter((type) => type !== 'null');
  if (nonNull.length > 1) return undefined;
  return nonNull[0] ?? (Array.isArray(property.enum) ? 'string' : undefined);
}

/** Whether the property allows `null`. */
export function isNullable(property: JsonSchema): boolean {
  return Array.isArray(property.type) ? property.type.includes('null') : property.type === 'null';
}

/**
 * The storage kind of a schema property, or a reason it has none.
 *
 * @example fieldKind({ type: 'string', format: 'date-time' }) // 'date-time'
 */
export function fieldKind(property: JsonSchema): FieldKind | { unsupported: string } {
  const type = baseType(property);
  switch (type) {
    case 'string':
      if (Array.isArray(property.enum)) return 'enum';
      if (property.format === 'date') return 'date';
      if (property.format === 'date-time') return 'date-time';
      return 'string';
    case 'integer':
      return property.format === 'int64' || (typeof property.maximum === 'number' && property.maximum > 2147483647) ? 'bigint' : 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'object':
      return 'json';
    default:
      return { unsupported: type ? `type "${type}" is not supported` : 'it needs one "type" (optionally with "null")' };
  }
}

/** Whether a field's value is text (substring filters and search apply). */
export function isTextual(property: JsonSchema): boolean {
  const kind = fieldKind(property);
  return kind === 'string' || kind === 'enum';
}

/** Whether a list may sort by the field (not JSON). */
export function isSortable(property: JsonSchema): boolean {
  const kind = fieldKind(property);
  return typeof kind === 'string' && kind !== 'json';
}
