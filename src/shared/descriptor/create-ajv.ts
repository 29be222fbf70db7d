import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { lengthBeforePattern } from './length-first.js';

/**
 * The ajv set-up for entity schemas, the same in Node and in the browser: every error at once,
 * formats (email, uri, date-time...), no type coercion (a body's `"1"` is not an integer), and
 * strict about unknown keywords so a typo in a schema stops start-up instead of being ignored.
 * A `pattern` never runs on a string its `maxLength` has already refused.
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, ...options });
  addFormats(ajv);
  return lengthBeforePattern(ajv);
}
