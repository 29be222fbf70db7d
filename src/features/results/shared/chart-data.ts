import type { ExamResultsData } from './results-contract.js';

/** One bar of a score distribution: final scores in `[from, to)` (the last band includes `to`). */
export interface Band {
  from: number;
  to: number;
  count: number;
}

/**
 * Final scores (trimmed means) of graded entries counted in `bands` equal bands of `0…maxScore`.
 *
 * @example distribution([55, 61, 100], 100, 5) // 0-20: 0, 20-40: 0, 40-60: 1, 60-80: 1, 80-100: 1
 */
export function distribution(scores: readonly number[], maxScore: number, bands = 10): Band[] {
  const width = maxScore / bands;
  const out: Band[] = Array.from({ length: bands }, (_, i) => ({
    from: Math.round(i * width * 100) / 100,
    to: Math.round((i + 1) * width * 100) / 100,
    count: 0,
  }));
  for (const score of scores) out[Math.min(bands - 1, Math.max(0, Math.floor(score / width)))]!.count += 1;
  return out;
}

/** Each juror's mean beside the exam's mean, most lenient first. */
export function leniency(data: Pick<ExamResultsData, 'jurors' | 'examMean'>) {
  return [...data.jurors]
    .sort((a, b) => b.leniency - a.leniency || a.name.localeCompare(b.name))
    .map((j) => ({ name: j.name, mean: j.mean, examMean: data.examMean ?? 0, difference: j.leniency }));
}

/** The final scores of an exam's graded entries. */
export const finalScores = (data: Pick<ExamResultsData, 'entries'>) => data.entries.filter((e) => e.score !== null).map((e) => e.score!);
