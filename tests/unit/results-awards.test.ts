import { describe, expect, it } from 'vitest';
import { aggregateExam } from '../../src/features/results/shared/aggregate.js';
import { type AwardRule, computeAwards } from '../../src/features/results/shared/awards.js';

/** One juror per entry (raw totals): final score = the total. Exam maximum 50, so min_score 80 → 40. */
const results = (totals: Record<number, number | null>) =>
  aggregateExam(
    Object.keys(totals).map((id) => ({ contestId: Number(id) })),
    Object.entries(totals)
      .filter(([, total]) => total !== null)
      .map(([id, total], j) => ({ contestId: Number(id), jurorId: 100 + j, total: total! })),
    [],
    { maxScore: 50 },
  ).entries;

const RULES: AwardRule[] = [
  { id: 5, name: 'Merit', rank: 5, rule: 'top_n', top_n: 1 },
  { id: 1, name: 'Grand Prix', rank: 1, rule: 'top_n', top_n: 1 },
  { id: 2, name: 'Gold', rank: 2, rule: 'min_score', min_score: 80 },
  { id: 3, name: 'Silver', rank: 3, rule: 'min_score', min_score: 70 },
];

describe('computeAwards', () => {
  it('hands awards out in rank order, one per entry, min_score scaled to the exam maximum', () => {
    //   entry:   1   2   3   4   5   6   7
    //   score:  48  41  40  39  35  20   -
    //   award:  GP  Gold Gold Silver Silver Merit none
    const awards = computeAwards(results({ 1: 48, 2: 41, 3: 40, 4: 39, 5: 35, 6: 20, 7: null }), RULES, 50);
    expect(awards.map((a) => [a.contestId, a.awardId])).toEqual([
      [1, 1],
      [2, 2],
      [3, 2],
      [4, 3],
      [5, 3],
      [6, 5],
      [7, null],
    ]);
  });

  it('never splits a tie: a top-N award goes to every entry tied with the N-th', () => {
    const awards = computeAwards(results({ 1: 45, 2: 45, 3: 30 }), RULES, 50);
    expect(awards.map((a) => [a.contestId, a.awardId])).toEqual([
      [1, 1],
      [2, 1],
      [3, 5],
    ]);
  });

  it("applies an admin's override with its reason, keeping the rules' award beside it", () => {
    const awards = computeAwards(results({ 1: 48, 2: 41 }), RULES, 50, [{ contestId: 2, awardId: null, reason: 'Entry breached the rules' }]);
    expect(awards[1]).toEqual({ contestId: 2, awardId: null, ruleAwardId: 2, overridden: true, reason: 'Entry breached the rules' });
    expect(awards[0]).toMatchObject({ awardId: 1, overridden: false, reason: null });
  });

  it('gives nothing when there are no rules or no graded entries', () => {
    expect(computeAwards(results({ 1: 48 }), [], 50).map((a) => a.awardId)).toEqual([null]);
    expect(computeAwards(results({ 1: null }), RULES, 50).map((a) => a.awardId)).toEqual([null]);
  });
});
