import type { FieldError } from '../api-contract.js';
import type { Comparison } from './types.js';

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A value as something ordered: numbers as they are, dates and date-times as epoch milliseconds. */
function ordinal(value: unknown): number | string {
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.getTime();
  const text = String(value);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
    if (!Number.isNaN(ms)) return ms;
  }
  return text;
}

/** Whether `a (operator) b` holds; equality is exact (a confirmation must match to the character). */
export function compareHolds(operator: Comparison['operator'], a: unknown, b: unknown): boolean {
  if (operator === 'eq') return a instanceof Date || b instanceof Date ? ordinal(a) === ordinal(b) : a === b;
  const x = ordinal(a);
  const y = ordinal(b);
  if (typeof x !== typeof y) return true;
  switch (operator) {
    case 'gt':
      return x > y;
    case 'gte':
      return x >= y;
    case 'lt':
      return x < y;
    case 'lte':
      return x <= y;
  }
}

/**
 * Checks a descriptor's `comparisons` against a record's values, the same way in the browser and
 * on the server. A rule is skipped while either field is empty (`required` reports that); a
 * failing rule is a field error on `field` with keyword `compare` and the rule's message key.
 *
 * @example checkComparisons([{ field: 'b', operator: 'eq', other: 'a', message: 'validation.password_confirmation.match' }], { a: 'x', b: 'y' })
 * // [{ path: 'b', keyword: 'compare', messageKey: 'validation.password_confirmation.match', params: { other: 'a', operator: 'eq' } }]
 */
export function checkComparisons(rules: readonly Comparison[], data: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const rule of rules) {
    const value = data[rule.field];
    const other = data[rule.other];
    if (isEmpty(value) || isEmpty(other) || compareHolds(rule.operator, value, other)) continue;
    errors.push({ path: rule.field, keyword: 'compare', messageKey: rule.message, params: { other: rule.other, operator: rule.operator } });
  }
  return errors;
}
