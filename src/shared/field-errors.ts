import type { FieldError } from './api-contract.js';

/** The parts of an ajv error that matter for a message; both the browser and the server have them. */
export interface RawValidationError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** Per field and keyword, an i18n key (a descriptor's `messages`). */
export type MessageKeys = Record<string, Record<string, string>>;

/**
 * Turns ajv's JSON-pointer path and keyword into the dotted field path the client puts the message
 * under. A `required` error names the missing property, so it belongs to that property's path.
 */
export function fieldPathOf(error: RawValidationError): string {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    base.push(error.params.missingProperty);
  }
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    base.push(error.params.additionalProperty);
  }
  return base.join('.');
}

/**
 * The one rule both sides use: `messages[field][keyword]` when the descriptor has it, else
 * `validation.<keyword>`.
 *
 * @example messageKeyFor({ name: { minLength: 'validation.name.min' } }, 'name', 'minLength') // 'validation.name.min'
 */
export function messageKeyFor(messages: MessageKeys | undefined, path: string, keyword: string): string {
  const field = path.split('.')[0] ?? '';
  return messages?.[path]?.[keyword] ?? messages?.[field]?.[keyword] ?? `validation.${keyword}`;
}

/** Reduces ajv errors to the wire's field errors, one per path and keyword. */
export function toFieldErrors(errors: readonly RawValidationError[], messages?: MessageKeys): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const error of errors) {
    const path = fieldPathOf(error);
    const id = `${path}\u0000${error.keyword}`;
    if (seen.has(id)) continue;
    seen.add(id);
    result.push({ path, keyword: error.keyword, messageKey: messageKeyFor(messages, path, error.keyword), params: error.params });
  }
  return result;
}
