import { type EntryResult, round2 } from './aggregate.js';

/** An award category's rule: the top N of a category, or a minimum final score. */
export interface AwardRule {
  id: number;
  name: string;
  /** Precedence: 1 is the highest award, handed out first. */
  rank: number;
  rule: 'top_n' | 'min_score';
  top_n?: number | null;
  /** Out of 100, scaled to the exam's maximum. */
  min_score?: number | null;
}

/** An admin's decision for one entry that replaces the rules' award (`awardId` null: no award). */
export interface AwardOverride {
  contestId: number;
  awardId: number | null;
  reason: string;
}

export interface AwardResult {
  contestId: number;
  awardId: number | null;
  /** The award the rules give, whatever the override says. */
  ruleAwardId: number | null;
  overridden: boolean;
  reason: string | null;
}

/**
 * Hands out awards from a final round's results (entries in display order, as `aggregateExam`
 * returns them). Awards go in rank order (then id), each entry receives at most one, and only
 * ranked (graded) entries receive any:
 * - `top_n` takes the first N entries still without an award, plus every later one tied with the
 *   N-th (same rank): a tie never splits an award;
 * - `min_score` takes every entry still without an award whose final score (`score`: the figure
 *   of the exam's ranking basis) is at least `round2(min_score / 100 · maxScore)`.
 * Rank and final score follow the exam's basis, so the awards do too.
 * Then each override replaces the award of its entry (flagged, with its reason).
 *
 * @example
 * // final scores 91, 86, 86, 70 with Grand Prix top 1, Gold min 85, Silver top 1:
 * // → Grand Prix: 91; Gold: 86, 86; Silver: 70
 */
export function computeAwards(
  entries: readonly EntryResult[],
  rules: readonly AwardRule[],
  maxScore: number,
  overrides: readonly AwardOverride[] = [],
): AwardResult[] {
  const given = new Map<number, number>();
  let remaining = entries.filter((e) => e.rank !== null && e.score !== null);
  const ordered = [...rules].sort((a, b) => a.rank - b.rank || a.id - b.id);
  for (const rule of ordered) {
    let taken: EntryResult[] = [];
    if (rule.rule === 'top_n') {
      const n = rule.top_n ?? 0;
      if (n > 0 && remaining.length > 0) {
        taken = remaining.slice(0, n);
        const lastRank = taken[taken.length - 1]!.rank;
        taken.push(...remaining.slice(n).filter((e) => e.rank === lastRank));
      }
    } else if (rule.min_score !== null && rule.min_score !== undefined) {
      const threshold = round2((rule.min_score / 100) * maxScore);
      taken = remaining.filter((e) => e.score! >= threshold);
    }
    for (const e of taken) given.set(e.contestId, rule.id);
    const takenIds = new Set(taken.map((e) => e.contestId));
    remaining = remaining.filter((e) => !takenIds.has(e.contestId));
  }
  const overrideOf = new Map(overrides.map((o) => [o.contestId, o]));
  return entries.map((e) => {
    const ruleAwardId = given.get(e.contestId) ?? null;
    const override = overrideOf.get(e.contestId);
    return {
      contestId: e.contestId,
      awardId: override ? override.awardId : ruleAwardId,
      ruleAwardId,
      overridden: !!override,
      reason: override?.reason ?? null,
    };
  });
}
