/** One criterion of an examination's judging sheet. */
export interface Criterion {
  key: string;
  label: string;
  weight: number;
  maximum: number;
  /** What the juror should look for, shown under the criterion on the scoring sheet. */
  guidance?: string;
}

/**
 * The weighted total of a grade, scaled to the exam's maximum:
 *
 *   total = maxScore × Σ(weightᵢ × scoreᵢ / maximumᵢ) / Σ weightᵢ
 *
 * over every criterion; a criterion without a score counts 0 (a draft's partial total). Rounded to
 * two decimals. With no criteria (or zero weight) the total is 0.
 *
 * @example weightedTotal([{key:'idea',label:'Idea',weight:3,maximum:10},{key:'craft',label:'Craft',weight:1,maximum:5}], {idea:8, craft:5}, 100) // 85
 */
export function weightedTotal(criteria: readonly Criterion[], scores: Readonly<Record<string, number>>, maxScore: number): number {
  const weights = criteria.reduce((sum, c) => sum + c.weight, 0);
  if (weights <= 0) return 0;
  const part = criteria.reduce((sum, c) => sum + (c.weight * (scores[c.key] ?? 0)) / c.maximum, 0);
  return Math.round(((maxScore * part) / weights) * 100) / 100;
}
