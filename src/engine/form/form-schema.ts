import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { ClientEntity, JsonSchema } from '../../shared/descriptor/types.js';
import { humanizeField } from '../data/entity-labels.js';

/** Which form of an entity: the create form or the edit form. */
export type FormMode = 'create' | 'edit';

/** A translate function as i18next's `t` (keys, or a list of keys tried in order). */
export type Translate = (key: string | string[], options?: Record<string, unknown>) => string;

/** The schema side of an entity form: what the data must be, independent of the language. */
export interface FormSchema {
  schema: RJSFSchema;
  /** The form's fields in order. */
  fields: string[];
}

const TRANSLATED_UI_KEYS = ['ui:title', 'ui:placeholder', 'ui:description', 'ui:help'] as const;

/** The option label of an enum value: the entity's own key, else the shared status words, else the value. */
export function enumLabel(entity: ClientEntity, field: string, value: unknown, t: Translate): string {
  return t([`entities.${entity.name}.enum.${field}.${String(value)}`, `common.status.${String(value)}`], {
    defaultValue: String(value),
  });
}

/**
 * The RJSF schema of an entity's create or edit form: the server-derived create or update schema
 * (only the form's fields) and the fields in the descriptor's order.
 */
export function buildFormSchema(entity: ClientEntity, mode: FormMode): FormSchema {
  const form = mode === 'create' ? entity.forms.create : entity.forms.edit;
  const source: JsonSchema = mode === 'create' ? entity.createSchema : entity.updateSchema;
  // The root title and $id belong to the entity, not the form (RJSF would print the title).
  const { $id: _id, $schema: _schema, title: _title, description: _description, ...schema } = source;
  const properties = withRangeChoices(schema.properties ?? {}, form.uiSchema);
  return { schema: { ...schema, properties } as RJSFSchema, fields: form.fields.filter((field) => field in properties) };
}

/** Widgets that offer a field's values as options; RJSF gives them options only from an `enum`. */
const CHOICE_WIDGETS = new Set(['radio', 'select']);
/** The widest integer range offered value by value. */
const MAX_RANGE_CHOICES = 20;

/**
 * An integer with a small `minimum`..`maximum` shown by a choice widget (a round of judging as radio
 * buttons) gets that range as its `enum`, so each value is an option, labelled like any enum value
 * ('Round 1', 'Babak 1'). Other fields are unchanged.
 */
function withRangeChoices(properties: Record<string, JsonSchema>, uiSchema: Record<string, Record<string, unknown>>): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = { ...properties };
  for (const [field, property] of Object.entries(properties)) {
    const widget = uiSchema[field]?.['ui:widget'];
    const { minimum, maximum } = property;
    if (typeof widget !== 'string' || !CHOICE_WIDGETS.has(widget) || property.enum || property.type !== 'integer') continue;
    if (typeof minimum !== 'number' || typeof maximum !== 'number' || maximum < minimum || maximum - minimum >= MAX_RANGE_CHOICES) continue;
    result[field] = { ...property, enum: Array.from({ length: maximum - minimum + 1 }, (_, i) => minimum + i) };
  }
  return result;
}

/**
 * The form's uiSchema in the reader's language: the descriptor's uiSchema with every label,
 * placeholder, help and enum option translated, and the fields in the descriptor's order.
 */
export function buildFormUiSchema(entity: ClientEntity, mode: FormMode, form: FormSchema, t: Translate): UiSchema {
  const own = mode === 'create' ? entity.forms.create.uiSchema : entity.forms.edit.uiSchema;
  const properties = (form.schema.properties ?? {}) as Record<string, JsonSchema>;
  const uiSchema: UiSchema = { 'ui:order': [...form.fields, '*'], 'ui:submitButtonOptions': { norender: true } };
  for (const field of Object.keys(properties)) {
    const options: Record<string, unknown> = { ...(own[field] ?? {}) };
    for (const key of TRANSLATED_UI_KEYS) {
      if (typeof options[key] === 'string') options[key] = t(options[key] as string);
    }
    if (options['ui:title'] === undefined) {
      options['ui:title'] = t(`entities.${entity.name}.fields.${field}`, { defaultValue: humanizeField(field) });
    }
    // The help under a field is `entities.<entity>.help.<field>` in the reader's language; the
    // schema's `description` documents the field for developers and is never shown (it is English).
    if (options['ui:description'] === undefined) options['ui:description'] = t(`entities.${entity.name}.help.${field}`, { defaultValue: '' });
    const values = properties[field]?.enum;
    if (Array.isArray(values) && options['ui:enumNames'] === undefined) {
      options['ui:enumNames'] = Object.fromEntries(values.map((value) => [String(value), enumLabel(entity, field, value, t)]));
    }
    // A boolean shown as a choice (Status: Active / Inactive) uses the entity's own labels when it has them.
    const type = properties[field]?.type;
    if ((type === 'boolean' || (Array.isArray(type) && type.includes('boolean'))) && options['ui:enumNames'] === undefined) {
      const labels = [true, false].map((value) => t(`entities.${entity.name}.enum.${field}.${String(value)}`, { defaultValue: '' }));
      if (labels.every(Boolean)) options['ui:enumNames'] = { true: labels[0], false: labels[1] };
    }
    uiSchema[field] = options;
  }
  return uiSchema;
}

/** Whether a property's schema accepts `null`. */
function allowsNull(schema: JsonSchema | undefined): boolean {
  const type = schema?.type;
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}

/**
 * Whether a field's text is taken exactly as typed: a password (`format: "password"`) or any
 * write-only field. A space is a legitimate password character, so these are never trimmed, on
 * this side as on the server (`validateWriteBody`); a value of spaces only still counts as empty.
 */
export function isVerbatimField(schema: JsonSchema | undefined): boolean {
  return schema?.format === 'password' || schema?.writeOnly === true;
}

/**
 * Trims every string and drops the ones left empty, as the server reads them, so that a name of
 * spaces is 'Name is required' rather than a stored blank. Given the schema, password and
 * write-only fields keep their surrounding spaces ({@link isVerbatimField}).
 */
export function normalizeFormData(data: unknown, schema?: JsonSchema): unknown {
  if (typeof data === 'string') {
    const trimmed = data.trim();
    if (trimmed === '') return undefined;
    return isVerbatimField(schema) ? data : trimmed;
  }
  if (Array.isArray(data)) return data.map((item) => normalizeFormData(item, schema?.items));
  if (data && typeof data === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      const next = normalizeFormData(value, schema?.properties?.[key]);
      if (next !== undefined) result[key] = next;
    }
    return result;
  }
  return data;
}

/**
 * The request body of a save: only the form's fields, strings trimmed (passwords kept as typed),
 * empty ones left out on create and sent as `null` on edit where the schema allows null (so a
 * cleared phone is cleared).
 */
export function toSubmission(data: Record<string, unknown>, form: FormSchema, mode: FormMode): Record<string, unknown> {
  const normalized = normalizeFormData(data, form.schema as JsonSchema) as Record<string, unknown>;
  const properties = (form.schema.properties ?? {}) as Record<string, JsonSchema>;
  const body: Record<string, unknown> = {};
  for (const field of form.fields) {
    const value = normalized[field];
    if (value !== undefined) body[field] = value;
    else if (mode === 'edit' && allowsNull(properties[field])) body[field] = null;
  }
  return body;
}

/** The edit form's starting values: the record's values of the form's fields. */
export function pickFormData(record: Record<string, unknown>, form: FormSchema): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of form.fields) if (record[field] !== undefined && record[field] !== null) data[field] = record[field];
  return data;
}
