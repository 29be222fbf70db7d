import type { EntryResult } from './aggregate.js';

/** A shortlist's rule: the top N by rank, or every entry whose final score is at least a score on the exam's scale. */
export type ShortlistRule = { top: number } | { min_score: number };

/**
 * The entries a shortlist rule selects, in display order: `top` N takes every ranked entry whose
 * rank is at most N (so entries tied with the N-th go too); `min_score` every ranked entry whose
 * final score (`score`: the exam's ranking basis) is at least `min_score`. Unranked (ungraded)
 * entries are never selected. The server's shortlist and the fairness tests use this one rule.
 *
 * @example
 * shortlistSelection(results.entries, { top: 3 }) // [12, 7, 9] (contest ids)
 */
export function shortlistSelection(entries: readonly EntryResult[], rule: ShortlistRule): number[] {
  return entries.filter((e) => e.rank !== null && e.score !== null && ('top' in rule ? e.rank <= rule.top : e.score >= rule.min_score)).map((e) => e.contestId);
}
