import type { ValidateFunction } from 'ajv';
import { checkComparisons } from '../../shared/descriptor/comparisons.js';
import { createAjv } from '../../shared/descriptor/create-ajv.js';
import { isNullable } from '../../shared/descriptor/schema-fields.js';
import type { JsonSchema, LoadedEntity } from '../../shared/descriptor/types.js';
import { toFieldErrors } from '../../shared/field-errors.js';
import { validationFailed } from '../errors.js';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

// Create bodies get schema defaults filled in; update bodies never (an absent field stays as stored).
const createAjvInstance = createAjv({ useDefaults: true });
const updateAjvInstance = createAjv();
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorFor(schema: JsonSchema, operation: 'create' | 'update'): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = (operation === 'create' ? createAjvInstance : updateAjvInstance).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Checks a create or update body against the entity's derived body schema and returns a clean
 * copy: strings trimmed; a blank string counts as absent for a required field (so 'required'
 * fires) and as `null` for a nullable one; keys such as `__proto__` or `constructor` and any field
 * the form does not have are refused. Every field's error is reported at once (422).
 */
export function validateWriteBody(
  entity: LoadedEntity,
  body: unknown,
  operation: 'create' | 'update',
  /** Another body schema of the entity (an import's fields); default the form's. */
  schema: JsonSchema = operation === 'create' ? entity.createSchema : entity.updateSchema,
): Record<string, unknown> {
  const messages = entity.descriptor.messages;
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw validationFailed(
      [{ path: '', keyword: 'type', messageKey: 'validation.type', params: { type: 'object' } }],
      'The request body must be a JSON object.',
    );
  }
  const data: Record<string, unknown> = Object.create(null);
  const refused: string[] = [];
  for (const key of Reflect.ownKeys(body as object)) {
    if (typeof key !== 'string') continue;
    if (FORBIDDEN_KEYS.has(key)) {
      refused.push(key);
      continue;
    }
    let value = (body as Record<string, unknown>)[key];
    const property = schema.properties?.[key];
    if (typeof value === 'string' && property) {
      const trimmed = value.trim();
      if (trimmed === '' && (schema.required?.includes(key) || !isNullable(property))) continue;
      value = trimmed === '' ? null : property.format === 'password' || property.writeOnly ? value : trimmed;
    }
    data[key] = value;
  }
  const errors = toFieldErrors(
    refused.map((key) => ({ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: key } })),
    messages,
  );
  const plain = Object.assign({}, data);
  const validate = validatorFor(schema, operation);
  if (!validate(plain)) errors.push(...toFieldErrors(validate.errors ?? [], messages));
  errors.push(...checkComparisons(entity.descriptor.comparisons, plain));
  if (errors.length > 0) throw validationFailed(errors);
  return plain;
}
