import type { FieldError } from '../../../../shared/api-contract.js';
import type { BeforeWriteHook } from '../../../../shared/extension/server-hooks.js';

/**
 * Guards an examination's judging sheet: criterion keys are unique, the closing date is not before
 * the opening date, and the criteria change only while the exam is a draft (422 on `criteria`).
 */
export const examRules: BeforeWriteHook = ({ data, previous, errors: fail }) => {
  const errors: FieldError[] = [];
  const criteria = data.criteria as Array<{ key: string }> | undefined;
  if (Array.isArray(criteria)) {
    const seen = new Set<string>();
    criteria.forEach((c, i) => {
      if (seen.has(c.key)) errors.push({ path: `criteria.${i}.key`, keyword: 'unique', messageKey: 'judging.errors.criterion_key_unique', params: {} });
      seen.add(c.key);
    });
    if (previous && previous.status !== 'draft' && JSON.stringify(previous.criteria ?? []) !== JSON.stringify(criteria)) {
      errors.push({ path: 'criteria', keyword: 'locked', messageKey: 'judging.errors.criteria_locked', params: { status: previous.status } });
    }
  }
  const opens = data.opens_at ?? previous?.opens_at;
  const closes = data.closes_at ?? previous?.closes_at;
  if (opens && closes && new Date(String(closes)).getTime() < new Date(String(opens)).getTime()) {
    errors.push({ path: 'closes_at', keyword: 'after', messageKey: 'judging.errors.closes_before_opens', params: {} });
  }
  if (errors.length > 0) throw fail.validationFailed(errors);
};
