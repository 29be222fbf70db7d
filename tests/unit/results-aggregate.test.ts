import { describe, expect, it } from 'vitest';
import { aggregateExam, populationSd, type RankingBasis, round2, trimmedMean } from '../../src/features/results/shared/aggregate.js';

/*
 * Table 1, exam maximum 100, jurors A=1, B=2, C=3; every entry 10-13 assigned to A, B and C,
 * entry 14 to A and B (nobody graded it).
 *
 *          A    B    C   | mean   trimmed  spread  normalised                      rank  order
 *   e10    90   80   50  | 73.33  73.33    40 (!) (88.8252 + 80 + 50) / 3 = 72.94   2     2
 *   e11    70   80   70  | 73.33  73.33    10     (68.1693 + 80 + 70) / 3 = 72.72   2     3
 *   e12    80   80   -   | 80     80        0     (78.4973 + 80) / 2      = 79.25   1     1
 *   e13    60   -    -   | 60     60        0     57.84                            4     4
 *   e14    -    -    -   | -      -         -     -                                -     5
 *
 * Exam: 9 totals, μ = 660 / 9 = 73.3333, σ = √(1200 / 9) = 11.5470.
 * A: 4 totals, μ_A = 75, σ_A = √(500 / 4) = 11.1803 → y = 73.3333 + (x − 75) · 11.5470 / 11.1803
 *    90 → 88.8252, 70 → 68.1693, 80 → 78.4973, 60 → 57.8414.
 * B: gave every entry 80 (σ_B = 0) → raw, 'no_spread'.  C: 2 totals (σ_C = 10) → raw, 'few_grades'.
 * Leniency: A 75 − 73.33 = 1.67; B 80 − 73.33 = 6.67; C 60 − 73.33 = −13.33.
 */
const table1 = (basis: RankingBasis = 'trimmed_mean') =>
  aggregateExam(
    [10, 11, 12, 13, 14].map((contestId) => ({ contestId, submittedAt: `2026-11-0${contestId - 9}T00:00:00Z` })),
    [
      { contestId: 10, jurorId: 1, total: 90 },
      { contestId: 11, jurorId: 1, total: 70 },
      { contestId: 12, jurorId: 1, total: 80 },
      { contestId: 13, jurorId: 1, total: 60 },
      { contestId: 10, jurorId: 2, total: 80 },
      { contestId: 11, jurorId: 2, total: 80 },
      { contestId: 12, jurorId: 2, total: 80 },
      { contestId: 10, jurorId: 3, total: 50 },
      { contestId: 11, jurorId: 3, total: 70 },
      { contestId: 12, jurorId: 3, total: 99, status: 'draft' },
    ],
    [
      ...[10, 11, 12, 13].flatMap((contestId) => [1, 2, 3].map((jurorId) => ({ contestId, jurorId }))),
      { contestId: 14, jurorId: 1 },
      { contestId: 14, jurorId: 2 },
    ],
    { maxScore: 100, basis },
  );

describe('aggregateExam', () => {
  it('reproduces the hand-computed table: means, spread, normalised score, ranks with ties', () => {
    const results = table1();
    const rows = results.entries.map((e) => [
      e.contestId,
      e.submitted,
      e.assigned,
      e.mean,
      e.trimmedMean,
      e.spread,
      e.normalised,
      e.rank,
      e.position,
      e.moderation,
    ]);
    expect(rows).toEqual([
      [12, 2, 3, 80, 80, 0, 79.25, 1, 1, false],
      [10, 3, 3, 73.33, 73.33, 40, 72.94, 2, 2, true],
      [11, 3, 3, 73.33, 73.33, 10, 72.72, 2, 3, false],
      [13, 1, 3, 60, 60, 0, 57.84, 4, 4, false],
      [14, 0, 2, null, null, null, null, null, 5, false],
    ]);
    expect(results.examMean).toBe(73.33);
    expect(results.examSd).toBe(11.55);
    expect(results.moderationThreshold).toBe(25);
    expect(results.entries.map((e) => e.score)).toEqual(results.entries.map((e) => e.trimmedMean));
  });

  it('ranks by the normalised score by default, and by the mean on request; the fallback is counted per entry', () => {
    // Normalised: e12 79.25, e10 72.94, e11 72.72, e13 57.84 → no tie, ranks 1-4.
    const normalised = table1('normalised');
    expect(normalised.basis).toBe('normalised');
    expect(normalised.entries.map((e) => [e.contestId, e.score, e.rank, e.rawGrades])).toEqual([
      [12, 79.25, 1, 1],
      [10, 72.94, 2, 2],
      [11, 72.72, 3, 2],
      [13, 57.84, 4, 0],
      [14, null, null, 0],
    ]);
    const byDefault = aggregateExam(
      [{ contestId: 1 }, { contestId: 2 }],
      [
        { contestId: 1, jurorId: 1, total: 10 },
        { contestId: 2, jurorId: 1, total: 20 },
      ],
      [],
      {
        maxScore: 100,
      },
    );
    expect(byDefault.basis).toBe('normalised');
    // Mean: e12 80, then e10 and e11 tie at 73.33 (rank 2, 2), broken for display by the normalised score.
    expect(table1('mean').entries.map((e) => [e.contestId, e.score, e.rank])).toEqual([
      [12, 80, 1],
      [10, 73.33, 2],
      [11, 73.33, 2],
      [13, 60, 4],
      [14, null, null],
    ]);
  });

  it('normalises a juror with spread and keeps raw totals, flagged, for one with no spread or too few grades', () => {
    const results = table1();
    expect(results.jurors).toEqual([
      { jurorId: 1, grades: 4, mean: 75, sd: 11.18, leniency: 1.67, raw: null },
      { jurorId: 2, grades: 3, mean: 80, sd: 0, leniency: 6.67, raw: 'no_spread' },
      { jurorId: 3, grades: 2, mean: 60, sd: 10, leniency: -13.33, raw: 'few_grades' },
    ]);
    expect(results.entries.find((e) => e.contestId === 10)!.grades).toEqual([
      { jurorId: 1, total: 90, normalised: 88.83, raw: null },
      { jurorId: 2, total: 80, normalised: 80, raw: 'no_spread' },
      { jurorId: 3, total: 50, normalised: 50, raw: 'few_grades' },
    ]);
  });

  it('ignores draft grades', () => {
    const e12 = table1().entries.find((e) => e.contestId === 12)!;
    expect(e12.grades.map((g) => g.jurorId)).toEqual([1, 2]);
  });

  it("gives a single juror's entries their raw totals as normalised scores and breaks a full tie by the earlier submission", () => {
    const results = aggregateExam(
      [
        { contestId: 1, submittedAt: '2026-10-02T00:00:00Z' },
        { contestId: 2, submittedAt: '2026-10-01T00:00:00Z' },
        { contestId: 3, submittedAt: '2026-10-03T00:00:00Z' },
      ],
      [
        { contestId: 1, jurorId: 5, total: 50 },
        { contestId: 2, jurorId: 5, total: 50 },
        { contestId: 3, jurorId: 5, total: 80 },
      ],
      [],
      { maxScore: 100 },
    );
    // μ = μ_j = 60 and σ = σ_j = √200, so y = x.
    expect(results.entries.map((e) => [e.contestId, e.normalised, e.rank, e.position])).toEqual([
      [3, 80, 1, 1],
      [2, 50, 2, 2],
      [1, 50, 2, 3],
    ]);
    expect(results.jurors[0]!.raw).toBeNull();
  });

  it('drops the highest and lowest of five or more grades, and breaks a trimmed-mean tie by normalised score', () => {
    // Five jurors grade two entries each (fewer than 3 → raw): normalised = mean.
    // X: 60 70 70 70 100 → mean 74, trimmed 70, spread 40.  Y: 40 70 70 70 80 → mean 66, trimmed 70.
    const x = [60, 70, 70, 70, 100];
    const y = [40, 70, 70, 70, 80];
    const grades = [...x.map((total, i) => ({ contestId: 1, jurorId: i + 1, total })), ...y.map((total, i) => ({ contestId: 2, jurorId: i + 1, total }))];
    const results = aggregateExam([{ contestId: 2 }, { contestId: 1 }], grades, [], { maxScore: 100, moderationThreshold: 30, basis: 'trimmed_mean' });
    expect(results.entries.map((e) => [e.contestId, e.mean, e.trimmedMean, e.normalised, e.spread, e.rank, e.position, e.moderation])).toEqual([
      [1, 74, 70, 74, 40, 1, 1, true],
      [2, 66, 70, 66, 40, 1, 2, true],
    ]);
  });

  it('clamps a normalised total to the 0…maximum scale', () => {
    // Juror 1: 0, 0, 30 (μ 10, σ 14.14). Juror 2: 100, 100, 100 raw. Exam μ 47.78, σ 47.09.
    // Juror 1's 30 → 47.78 + 1.4142 · 47.09 = 114.4 → clamped to 100.
    const grades = [
      { contestId: 1, jurorId: 1, total: 0 },
      { contestId: 2, jurorId: 1, total: 0 },
      { contestId: 3, jurorId: 1, total: 30 },
      { contestId: 1, jurorId: 2, total: 100 },
      { contestId: 2, jurorId: 2, total: 100 },
      { contestId: 3, jurorId: 2, total: 100 },
    ];
    const e3 = aggregateExam([], grades, [], { maxScore: 100 }).entries.find((e) => e.contestId === 3)!;
    expect(e3.grades[0]).toEqual({ jurorId: 1, total: 30, normalised: 100, raw: null });
  });

  it('answers an exam with no grades with no figures', () => {
    const results = aggregateExam([{ contestId: 1 }], [], [], { maxScore: 50 });
    expect(results.examMean).toBeNull();
    expect(results.entries).toEqual([
      {
        contestId: 1,
        submitted: 0,
        assigned: 0,
        mean: null,
        trimmedMean: null,
        normalised: null,
        spread: null,
        score: null,
        rawGrades: 0,
        rank: null,
        position: 1,
        moderation: false,
        grades: [],
      },
    ]);
  });
});

describe('helpers', () => {
  it('computes the population standard deviation, a trimmed mean and rounds half away from zero', () => {
    expect(populationSd([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
    expect(trimmedMean([1, 2, 3, 4])).toBe(2.5);
    expect(trimmedMean([1, 2, 3, 4, 100])).toBe(3);
    expect(round2(1.005)).toBe(1.01);
    expect(round2(-1.005)).toBe(-1.01);
  });
});
