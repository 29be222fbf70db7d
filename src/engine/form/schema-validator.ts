import { type OutputUnit, type Schema, Validator } from '@cfworker/json-schema';
import {
  type CustomValidator,
  createErrorHandler,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  toErrorSchema,
  type UiSchema,
  unwrapErrorHandler,
  type ValidationData,
  type ValidatorType,
  validationDataMerge,
} from '@rjsf/utils';
import type { RawValidationError } from '../../shared/field-errors.js';
import { normalizeFormData } from './form-schema.js';

/** Keywords that only summarise the errors of the parts below them. */
const SUMMARY_KEYWORDS = new Set([
  'properties',
  'items',
  'additionalItems',
  'allOf',
  'anyOf',
  'oneOf',
  'if',
  'then',
  'else',
  'not',
  '$ref',
  'false',
  'dependentSchemas',
  'unevaluatedProperties',
  'prefixItems',
]);

/** Keywords whose schema value is ajv's `limit` param. */
const LIMIT_KEYWORDS = new Set([
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
]);

function decode(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value at a JSON pointer (`#/properties/name`) or `undefined`. */
function at(root: unknown, pointer: string): unknown {
  let value: unknown = root;
  for (const segment of pointer.replace(/^#/, '').split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[decode(segment)];
  }
  return value;
}

/**
 * Turns the interpreter's output into the `{instancePath, keyword, params}` errors ajv gives, so
 * the browser picks its messages with the same `messageKeyFor` the server uses on ajv's errors.
 */
export function toRawErrors(units: readonly OutputUnit[], schema: unknown, data: unknown): RawValidationError[] {
  const result: RawValidationError[] = [];
  const seen = new Set<string>();
  const push = (error: RawValidationError) => {
    const id = `${error.instancePath}\u0000${error.keyword}\u0000${JSON.stringify(error.params)}`;
    if (seen.has(id)) return;
    seen.add(id);
    result.push(error);
  };
  for (const unit of units) {
    if (SUMMARY_KEYWORDS.has(unit.keyword)) continue;
    const instancePath = unit.instanceLocation.replace(/^#/, '');
    const keywordValue = at(schema, unit.keywordLocation);
    const parentSchema = at(schema, unit.keywordLocation.replace(/\/[^/]*$/, '')) as Record<string, unknown> | undefined;
    const instance = at(data, unit.instanceLocation) as Record<string, unknown> | undefined;
    if (unit.keyword === 'required') {
      const required = Array.isArray(keywordValue) ? (keywordValue as string[]) : [];
      for (const missing of required.filter((key) => !instance || typeof instance !== 'object' || !(key in instance))) {
        push({ instancePath, keyword: 'required', params: { missingProperty: missing } });
      }
    } else if (unit.keyword === 'additionalProperties') {
      const allowed = Object.keys((parentSchema?.properties as object | undefined) ?? {});
      for (const extra of Object.keys(instance ?? {}).filter((key) => !allowed.includes(key))) {
        push({ instancePath, keyword: 'additionalProperties', params: { additionalProperty: extra } });
      }
    } else if (LIMIT_KEYWORDS.has(unit.keyword)) {
      push({ instancePath, keyword: unit.keyword, params: { limit: keywordValue } });
    } else if (unit.keyword === 'enum') {
      push({ instancePath, keyword: 'enum', params: { allowedValues: keywordValue } });
    } else if (unit.keyword === 'const') {
      push({ instancePath, keyword: 'const', params: { allowedValue: keywordValue } });
    } else {
      push({ instancePath, keyword: unit.keyword, params: { [unit.keyword]: keywordValue } });
    }
  }
  return result;
}

/** The dotted property RJSF puts an error under (`.name`, `.links.0.url`). */
function propertyOf(error: RawValidationError): string {
  const parts = error.instancePath.split('/').slice(1).map(decode);
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') parts.push(String(error.params.additionalProperty));
  return parts.length > 0 ? `.${parts.join('.')}` : '';
}

const validators = new WeakMap<object, Validator>();

function validatorFor(schema: RJSFSchema, rootSchema?: RJSFSchema): Validator {
  const key = schema as object;
  let validator = validators.get(key);
  if (!validator) {
    const withDefinitions = rootSchema && rootSchema !== schema && rootSchema.definitions ? { ...schema, definitions: rootSchema.definitions } : schema;
    validator = new Validator(withDefinitions as Schema, '7', false);
    validators.set(key, validator);
  }
  return validator;
}

/**
 * RJSF's validator for the console's forms. It interprets JSON Schema (draft-07) instead of
 * compiling it, because the console's Content-Security-Policy forbids `eval`, which ajv's
 * compiled validators need (why not precompiled ones: see docs/architecture.md, "Tooling and
 * dependencies"). It validates the data as the server reads it (strings trimmed, empty
 * ones missing) and reports errors with ajv's keywords and params.
 */
export function createFormValidator(): ValidatorType {
  const rawErrors = (schema: RJSFSchema, formData: unknown) => {
    const data = normalizeFormData(formData, schema as Parameters<typeof normalizeFormData>[1]);
    const output = validatorFor(schema).validate(data ?? {});
    return output.valid ? [] : toRawErrors(output.errors, schema, data ?? {});
  };

  return {
    validateFormData(
      formData: unknown,
      schema: RJSFSchema,
      customValidate?: CustomValidator,
      transformErrors?: ErrorTransformer,
      uiSchema?: UiSchema,
    ): ValidationData<unknown> {
      let errors: RJSFValidationError[] = rawErrors(schema, formData).map((error) => ({
        name: error.keyword,
        property: propertyOf(error),
        params: error.params,
        message: error.keyword,
        stack: `${propertyOf(error)} ${error.keyword}`.trim(),
        schemaPath: '',
      }));
      if (transformErrors) errors = transformErrors(errors, uiSchema);
      let result: ValidationData<unknown> = { errors, errorSchema: toErrorSchema(errors) };
      if (customValidate) {
        const handler = customValidate(formData, createErrorHandler(formData), uiSchema);
        result = validationDataMerge(result, unwrapErrorHandler(handler));
      }
      return result;
    },
    isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
      try {
        return validatorFor(schema, rootSchema).validate(formData).valid;
      } catch {
        return false;
      }
    },
    rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown) {
      try {
        return { errors: rawErrors(schema, formData) as Result[] };
      } catch (error) {
        return { validationError: error as Error };
      }
    },
  };
}
