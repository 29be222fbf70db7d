import { type ErrorSchema, ErrorSchemaBuilder, type RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '../../shared/api-contract.js';
import { type MessageKeys, messageKeyFor } from '../../shared/field-errors.js';
import type { Translate } from './form-schema.js';

/** The dotted field path of an RJSF error (`.links.0.url` → `links.0.url`). */
export function errorPath(error: RJSFValidationError): string {
  return (error.property ?? '')
    .replace(/^\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\['([^']+)'\]/g, '.$1');
}

/**
 * RJSF's `transformErrors`: every ajv error gets the message the server would send, through the
 * same `messageKeyFor` the server uses, translated with ajv's params (`{{limit}}`).
 */
export function createErrorTransformer(messages: MessageKeys | undefined, t: Translate) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors.map((error) => {
      const key = messageKeyFor(messages, errorPath(error), error.name ?? '');
      const message = t(key, { ...(error.params ?? {}) });
      return { ...error, message, stack: `${errorPath(error)} ${message}`.trim() };
    });
}

/**
 * Splits a server 422's field errors into RJSF `extraErrors` under the form's fields and the
 * messages that belong to no field of the form (shown as a toast instead).
 */
export function toExtraErrors(
  errors: readonly FieldError[],
  fields: readonly string[],
  t: Translate,
): { extraErrors: ErrorSchema | undefined; unplaced: string[] } {
  const builder = new ErrorSchemaBuilder();
  const unplaced: string[] = [];
  let placed = 0;
  for (const error of errors) {
    const message = t(error.messageKey, { ...error.params });
    const top = error.path.split('.')[0] ?? '';
    if (error.path && fields.includes(top)) {
      builder.addErrors(message, error.path);
      placed += 1;
    } else {
      unplaced.push(message);
    }
  }
  return { extraErrors: placed > 0 ? builder.ErrorSchema : undefined, unplaced };
}
