/**
 * The rules of an exam's criteria as the criteria editor checks them row by row (the exam schema's
 * `criteria.items` and the `exam-rules` hook say the same on the server): pure, shared.
 */

/** A criterion row as the editor holds it: numbers may be missing while typed. */
export interface CriterionDraft {
  key?: string;
  label?: string;
  weight?: number;
  maximum?: number;
  guidance?: string;
}

/** The fields of a row, in the editor's order. */
export type CriterionField = 'label' | 'key' | 'weight' | 'maximum' | 'guidance';

/** One problem: its message key under `judging.criteria.errors.*` and the key's params. */
export interface CriterionProblem {
  messageKey: string;
  params: Record<string, number | string>;
}

/** A key: a lower-case letter, then lower-case letters, digits and `_`; at most 40 characters. */
export const CRITERION_KEY_PATTERN = /^[a-z][a-z0-9_]*$/;
export const CRITERION_KEY_MAX = 40;
export const CRITERION_LABEL_MAX = 120;
export const CRITERION_GUIDANCE_MAX = 500;
export const CRITERION_WEIGHT_MAX = 100;
export const CRITERION_MAXIMUM_MAX = 1000;

/**
 * The key a label gives: accents folded, lower case, every run of other characters one `_`, no `_`
 * at either end, a leading digit prefixed with `c_`, cut to 40 characters. Empty for a label with
 * no letter or digit.
 *
 * @example criterionKeyFrom('Idea & Insight (2025)') // 'idea_insight_2025'
 */
export function criterionKeyFrom(label: string): string {
  const base = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const key = /^[0-9]/.test(base) ? `c_${base}` : base;
  return key.slice(0, CRITERION_KEY_MAX).replace(/_+$/g, '');
}

const problem = (messageKey: string, params: Record<string, number | string> = {}): CriterionProblem => ({
  messageKey: `judging.criteria.errors.${messageKey}`,
  params,
});

/** Each row's problems by field (an empty object for a valid row). */
export function criteriaProblems(rows: readonly CriterionDraft[]): Array<Partial<Record<CriterionField, CriterionProblem>>> {
  const keys = rows.map((row) => row.key?.trim() ?? '');
  return rows.map((row, i) => {
    const out: Partial<Record<CriterionField, CriterionProblem>> = {};
    const label = row.label?.trim() ?? '';
    if (!label) out.label = problem('label_required');
    else if (label.length > CRITERION_LABEL_MAX) out.label = problem('label_max', { max: CRITERION_LABEL_MAX });
    const key = keys[i] ?? '';
    if (!key) out.key = problem('key_required');
    else if (key.length > CRITERION_KEY_MAX) out.key = problem('key_max', { max: CRITERION_KEY_MAX });
    else if (!CRITERION_KEY_PATTERN.test(key)) out.key = problem('key_pattern');
    else if (keys.indexOf(key) !== i) out.key = problem('key_unique', { key });
    const weight = row.weight;
    if (weight === undefined || weight === null || Number.isNaN(weight)) out.weight = problem('weight_required');
    else if (!(weight > 0 && weight <= CRITERION_WEIGHT_MAX)) out.weight = problem('weight_range', { max: CRITERION_WEIGHT_MAX });
    const maximum = row.maximum;
    if (maximum === undefined || maximum === null || Number.isNaN(maximum)) out.maximum = problem('maximum_required');
    else if (!Number.isInteger(maximum) || maximum < 1 || maximum > CRITERION_MAXIMUM_MAX)
      out.maximum = problem('maximum_range', { max: CRITERION_MAXIMUM_MAX });
    if ((row.guidance?.length ?? 0) > CRITERION_GUIDANCE_MAX) out.guidance = problem('guidance_max', { max: CRITERION_GUIDANCE_MAX });
    return out;
  });
}

/**
 * Each criterion's share of the total, in percent (weight ÷ the sum of the weights), rounded to one
 * decimal; 0 for every row while the sum is not positive. Weights are relative: they need not sum to 100.
 *
 * @example weightShares([{weight: 3}, {weight: 1}]) // [75, 25]
 */
export function weightShares(rows: readonly CriterionDraft[]): number[] {
  const sum = weightSum(rows);
  return rows.map((row) => (sum > 0 && typeof row.weight === 'number' && row.weight > 0 ? Math.round((1000 * row.weight) / sum) / 10 : 0));
}

/** The sum of the rows' valid weights (a missing or non-positive one counts 0), to two decimals. */
export function weightSum(rows: readonly CriterionDraft[]): number {
  const sum = rows.reduce((total, row) => total + (typeof row.weight === 'number' && row.weight > 0 ? row.weight : 0), 0);
  return Math.round(sum * 100) / 100;
}
