import type { EntityDescriptor, JsonSchema } from './types.js';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The body schema of a form: exactly its fields (read-only dropped), required where the entity schema requires them, nothing else. */
export function formSchema(schema: JsonSchema, fields: readonly string[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const property = clone(schema.properties?.[field] ?? {});
    delete property.readOnly;
    properties[field] = property;
  }
  const required = (schema.required ?? []).filter((field) => fields.includes(field));
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * The body schema of a create (POST): exactly the create form's fields, required where the entity
 * schema requires them, nothing else accepted. Read-only fields cannot be written.
 */
export function deriveCreateSchema(descriptor: EntityDescriptor, schema: JsonSchema): JsonSchema {
  return formSchema(schema, descriptor.forms.create.fields);
}

/**
 * The body schema of an update (PUT): exactly the edit form's fields; those the entity schema
 * requires must be sent (a PUT carries the whole form, as the spec's clients do).
 */
export function deriveUpdateSchema(descriptor: EntityDescriptor, schema: JsonSchema): JsonSchema {
  return formSchema(schema, descriptor.forms.edit.fields);
}
