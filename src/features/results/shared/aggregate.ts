/**
 * The results of one examination, as pure functions: the same figures on the server (API, export,
 * shortlist, awards) and in the browser, reproducible in a spreadsheet.
 *
 * Notation, for one exam with maximum score `M`:
 * - `x(j, e)` the submitted total juror `j` gave entry `e` (drafts never count);
 * - `n(e)` how many submitted totals entry `e` has, `a(e)` how many jurors it was assigned.
 *
 * Per entry:
 * - **mean** `= Σ_j x(j, e) / n(e)`;
 * - **trimmed mean** `=` the mean once the single highest and single lowest totals are dropped, when
 *   `n(e) ≥ 5` (`(Σ − max − min) / (n − 2)`); otherwise the mean;
 * - **spread** `= max_j x(j, e) − min_j x(j, e)` (0 with one grade);
 * - **normalised score** `=` the mean of the entry's normalised totals `y(j, e)` (below);
 * - **moderation** is flagged when `spread > threshold` (default: a quarter of `M`).
 *
 * Per juror, over every entry they submitted in the exam (`k` totals, mean `μ_j`, population
 * standard deviation `σ_j`), and the exam's own mean `μ` and population standard deviation `σ` over
 * every submitted total:
 * - `z(j, e) = (x(j, e) − μ_j) / σ_j`;
 * - `y(j, e) = clamp(μ + z(j, e) · σ, 0, M)`: the z-score put back on the exam's 0…M scale, so a
 *   lenient and a harsh juror weigh alike;
 * - **the fallback**: a juror with fewer than {@link MIN_GRADES_TO_NORMALISE} (3) submitted totals in
 *   the exam (`few_grades`: with 2 totals every z-score is ±1, with 1 it is undefined) or with
 *   `σ_j = 0` (`no_spread`: the same total everywhere) cannot be normalised; their raw totals count
 *   as they are (`y = x`, already on the exam's 0…M scale), and the results say so per juror
 *   (`JurorSummary.raw`), per grade (`EntryGrade.raw`) and per entry (`EntryResult.rawGrades`);
 * - **leniency** `= μ_j − μ`.
 *
 * The entry's **final score** (`score`) is the figure the exam's ranking basis names (§17):
 * `normalised` (the default), `trimmed_mean` or `mean`. **Rank** orders graded entries by final
 * score, highest first, with competition ranking: equal final scores (compared at 2 decimals, as
 * shown) share a rank and the next rank skips (1, 1, 3). The display order breaks a tie by
 * normalised score, then mean (both higher first), then the earlier submission of the entry, then
 * the entry id. Entries with no submitted grade have no rank and come last. Every figure is rounded
 * to 2 decimals once, at the end. The shortlist and the awards read `rank` and `score`, so they
 * follow the basis too.
 */

/** What an exam ranks its entries by (the exam's `ranking` field). */
export type RankingBasis = 'normalised' | 'trimmed_mean' | 'mean';
export const RANKING_BASES: readonly RankingBasis[] = ['normalised', 'trimmed_mean', 'mean'];
/** The basis of an exam whose `ranking` is missing or unknown. */
export const DEFAULT_RANKING: RankingBasis = 'normalised';
/** The exam's basis, the default for a missing or unknown value. */
export const rankingOf = (value: unknown): RankingBasis => (RANKING_BASES.includes(value as RankingBasis) ? (value as RankingBasis) : DEFAULT_RANKING);

/** One juror's total for one entry. */
export interface GradeInput {
  contestId: number;
  jurorId: number;
  total: number;
  /** Only submitted grades count; a missing status means submitted. */
  status?: 'draft' | 'submitted';
  submittedAt?: string | null;
}

/** An entry of the exam; `submittedAt` is when the entrant submitted it (tie-break). */
export interface EntryInput {
  contestId: number;
  submittedAt?: string | null;
}

export interface AssignmentInput {
  contestId: number;
  jurorId: number;
}

export interface AggregateOptions {
  maxScore: number;
  /** Spread above which an entry is flagged for moderation; default `maxScore / 4`. */
  moderationThreshold?: number;
  /** What rank, shortlist and awards follow; default `normalised`. */
  basis?: RankingBasis;
}

/** Why a juror's totals were kept raw instead of normalised. */
export type RawReason = 'few_grades' | 'no_spread';

export interface JurorSummary {
  jurorId: number;
  grades: number;
  mean: number;
  sd: number;
  /** `mean − exam mean`: above 0 a lenient juror, below 0 a harsh one. */
  leniency: number;
  /** null when normalised, else why the raw totals are kept. */
  raw: RawReason | null;
}

export interface EntryGrade {
  jurorId: number;
  total: number;
  normalised: number;
  raw: RawReason | null;
}

export interface EntryResult {
  contestId: number;
  submitted: number;
  assigned: number;
  mean: number | null;
  trimmedMean: number | null;
  normalised: number | null;
  spread: number | null;
  /** The final score: the figure named by the exam's ranking basis (rank, shortlist and awards follow it). */
  score: number | null;
  /** How many of the entry's grades are kept raw (their juror could not be normalised: the fallback). */
  rawGrades: number;
  rank: number | null;
  /** 1-based display order (every entry has one). */
  position: number;
  moderation: boolean;
  grades: EntryGrade[];
}

export interface ExamResults {
  maxScore: number;
  basis: RankingBasis;
  moderationThreshold: number;
  examMean: number | null;
  examSd: number | null;
  entries: EntryResult[];
  jurors: JurorSummary[];
}

/** Rounds to 2 decimals (half away from zero), the precision every figure is shown with. */
export function round2(value: number): number {
  return (Math.sign(value) * Math.round(Math.abs(value) * 100 + 1e-9)) / 100;
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Population standard deviation (a spreadsheet's `STDEV.P`); null for no values. */
export function populationSd(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null) return null;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / values.length);
}

/** The mean without the single highest and lowest value when there are at least 5 values. */
export function trimmedMean(values: readonly number[]): number | null {
  if (values.length < 5) return mean(values);
  const sorted = [...values].sort((a, b) => a - b);
  return mean(sorted.slice(1, -1));
}

export function spread(values: readonly number[]): number | null {
  return values.length === 0 ? null : Math.max(...values) - Math.min(...values);
}

/** Fewest totals a juror needs to be normalised. */
export const MIN_GRADES_TO_NORMALISE = 3;

function jurorStats(grades: readonly GradeInput[], examMean: number) {
  const byJuror = new Map<number, number[]>();
  for (const g of grades) byJuror.set(g.jurorId, [...(byJuror.get(g.jurorId) ?? []), g.total]);
  const stats = new Map<number, { mean: number; sd: number; raw: RawReason | null; count: number }>();
  for (const [jurorId, totals] of byJuror) {
    const m = mean(totals)!;
    const sd = populationSd(totals)!;
    const raw: RawReason | null = totals.length < MIN_GRADES_TO_NORMALISE ? 'few_grades' : sd < 1e-9 ? 'no_spread' : null;
    stats.set(jurorId, { mean: m, sd, raw, count: totals.length });
  }
  const summaries: JurorSummary[] = [...stats].map(([jurorId, s]) => ({
    jurorId,
    grades: s.count,
    mean: round2(s.mean),
    sd: round2(s.sd),
    leniency: round2(s.mean - examMean),
    raw: s.raw,
  }));
  summaries.sort((a, b) => a.jurorId - b.jurorId);
  return { stats, summaries };
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.POSITIVE_INFINITY);

/**
 * Aggregates an exam's grades into its results (see the module's formulas).
 * Entries named only by grades or assignments are included too; `assigned` falls back to the
 * number of grades when no assignment names the entry.
 *
 * @example
 * aggregateExam([{ contestId: 1 }], [{ contestId: 1, jurorId: 7, total: 80 }], [], { maxScore: 100 })
 *   .entries[0] // { mean: 80, trimmedMean: 80, normalised: 80, rank: 1, ... }
 */
export function aggregateExam(
  entries: readonly EntryInput[],
  allGrades: readonly GradeInput[],
  assignments: readonly AssignmentInput[],
  options: AggregateOptions,
): ExamResults {
  const maxScore = options.maxScore;
  const threshold = options.moderationThreshold ?? maxScore / 4;
  const basis = options.basis ?? DEFAULT_RANKING;
  const scoreKey = ({ normalised: 'normalised', trimmed_mean: 'trimmedMean', mean: 'mean' } as const)[basis];
  const grades = allGrades.filter((g) => (g.status ?? 'submitted') === 'submitted');
  const totals = grades.map((g) => g.total);
  const examMean = mean(totals);
  const examSd = populationSd(totals);
  const { stats, summaries } = jurorStats(grades, examMean ?? 0);

  const ids = new Map<number, EntryInput>();
  for (const e of entries) ids.set(e.contestId, e);
  for (const g of allGrades) if (!ids.has(g.contestId)) ids.set(g.contestId, { contestId: g.contestId });
  for (const a of assignments) if (!ids.has(a.contestId)) ids.set(a.contestId, { contestId: a.contestId });

  const results = [...ids.values()].map((entry) => {
    const mine = grades.filter((g) => g.contestId === entry.contestId).sort((a, b) => a.jurorId - b.jurorId);
    const values = mine.map((g) => g.total);
    const entryGrades: EntryGrade[] = mine.map((g) => {
      const s = stats.get(g.jurorId)!;
      const y = s.raw ? g.total : Math.min(maxScore, Math.max(0, examMean! + ((g.total - s.mean) / s.sd) * examSd!));
      return { jurorId: g.jurorId, total: g.total, normalised: y, raw: s.raw };
    });
    const assigned = assignments.filter((a) => a.contestId === entry.contestId).length;
    const sp = spread(values);
    return {
      submittedAt: time(entry.submittedAt),
      result: {
        contestId: entry.contestId,
        submitted: values.length,
        assigned: Math.max(assigned, values.length),
        mean: mean(values),
        trimmedMean: trimmedMean(values),
        normalised: mean(entryGrades.map((g) => g.normalised)),
        spread: sp,
        score: null as number | null,
        rawGrades: entryGrades.filter((g) => g.raw !== null).length,
        rank: null as number | null,
        position: 0,
        moderation: sp !== null && sp > threshold + 1e-9,
        grades: entryGrades,
      } satisfies EntryResult,
    };
  });

  for (const { result } of results) {
    for (const key of ['mean', 'trimmedMean', 'normalised', 'spread'] as const) {
      const v = result[key];
      result[key] = v === null ? null : round2(v);
    }
    for (const g of result.grades) g.normalised = round2(g.normalised);
    result.score = result[scoreKey];
  }

  const desc = (a: number | null, b: number | null) => (b ?? Number.NEGATIVE_INFINITY) - (a ?? Number.NEGATIVE_INFINITY);
  results.sort(
    (a, b) =>
      desc(a.result.score, b.result.score) ||
      desc(a.result.normalised, b.result.normalised) ||
      desc(a.result.mean, b.result.mean) ||
      a.submittedAt - b.submittedAt ||
      a.result.contestId - b.result.contestId,
  );
  results.forEach(({ result }, index) => {
    result.position = index + 1;
    if (result.score === null) return;
    const previous = index > 0 ? results[index - 1]!.result : null;
    result.rank = previous && previous.score === result.score ? previous.rank : index + 1;
  });

  return {
    maxScore,
    basis,
    moderationThreshold: round2(threshold),
    examMean: examMean === null ? null : round2(examMean),
    examSd: examSd === null ? null : round2(examSd),
    entries: results.map((r) => r.result),
    jurors: summaries,
  };
}
