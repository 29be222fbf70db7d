import type Ajv from 'ajv';
import type { AnySchemaObject, DataValidateFunction } from 'ajv/dist/types/index.js';

/**
 * An e-mail address as a person types it (surrounding blanks allowed): something, `@`, then dot-
 * separated labels. Every part is told apart by one character (`@`, `.`, a blank), so a match never
 * backtracks more than once per character: linear time on any input, unlike the earlier
 * `[^\s@]+\.[^\s@]+`, which is quadratic on `a@....@`.
 */
export const EMAIL_PATTERN = '^\\s*[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)+\\s*$';

/** Characters as JSON Schema counts them (code points, not UTF-16 units), stopping past `limit`. */
function longerThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  if (text.length > limit * 2) return true;
  let count = 0;
  for (const _ of text) if (++count > limit) return true;
  return false;
}

/**
 * Makes `pattern` run only on strings within the same schema's `maxLength`. ajv runs every keyword
 * when it collects all errors, so an over-long string would still meet the pattern after
 * `maxLength` has refused it: with a pattern that backtracks, one large request can hold the event
 * loop for minutes. The string is refused by `maxLength` either way; the pattern's error is merely
 * not added for it. Errors keep ajv's shape (`keyword: 'pattern'`, `params.pattern`).
 */
export function lengthBeforePattern<T extends Pick<Ajv, 'removeKeyword' | 'addKeyword'>>(ajv: T): T {
  ajv.removeKeyword('pattern');
  ajv.addKeyword({
    keyword: 'pattern',
    type: 'string',
    schemaType: 'string',
    errors: true,
    compile(source: string, parentSchema: AnySchemaObject) {
      const regExp = new RegExp(source, 'u');
      const limit = typeof parentSchema.maxLength === 'number' ? parentSchema.maxLength : Number.POSITIVE_INFINITY;
      const validate: DataValidateFunction = (data: string) => {
        if (longerThan(data, limit) || regExp.test(data)) return true;
        validate.errors = [{ keyword: 'pattern', params: { pattern: source }, message: `must match pattern "${source}"` }];
        return false;
      };
      return validate;
    },
  });
  return ajv;
}
