import { sql } from 'kysely';
import { companyKey } from '../shared/company-key.js';
import type { JudgingDb } from './tables.js';

/** One planned assignment. */
export interface PlannedAssignment {
  contest_id: number;
  jury_id: number;
}

/** The plan of an auto-assign run. */
export interface AutoAssignPlan {
  planned: PlannedAssignment[];
  /** Every eligible juror's load in the exam after the plan (existing + planned, recusals excluded). */
  load: Array<{ jury_id: number; name: string; count: number }>;
  /** Entries that cannot reach K jurors, and why. */
  short: Array<{ contest_id: number; assigned: number; missing: number; reason: 'conflict_of_interest' | 'not_enough_jurors' }>;
}

interface Exam {
  id: number;
  category_id: number;
  round: number;
}

/**
 * Plans the assignments that bring every entry of the exam's category to `perEntry` jurors:
 * jurors of the exam's round who are active, with no company conflict and no recusal from the
 * entry. Existing assignments count and stay (a second run only fills gaps). The most constrained
 * entries (fewest possible jurors) are served first, each slot going to the least loaded juror
 * (ties: lower id), so loads differ by at most one wherever the conflicts allow. Deterministic:
 * the same data give the same plan.
 */
export async function planAutoAssign(db: JudgingDb, exam: Exam, perEntry: number): Promise<AutoAssignPlan> {
  const [entries, jurors, existing] = await Promise.all([
    sql<{ id: number; company: string | null }>`
      select c.id, cu.company from contests c left join customers cu on cu.id = c.customer_id
      where c.category_id = ${exam.category_id} order by c.id`.execute(db),
    sql<{ id: number; name: string; company: string | null }>`
      select id, name, company from juries where round = ${exam.round} and is_active order by id`.execute(db),
    sql<{ contest_id: number; jury_id: number; status: string; exam_id: number }>`
      select a.contest_id, a.jury_id, a.status, a.exam_id from assignments a
      join contests c on c.id = a.contest_id
      where a.exam_id = ${exam.id} or (a.status = 'recused' and c.category_id = ${exam.category_id})`.execute(db),
  ]);

  const load = new Map<number, number>(jurors.rows.map((j) => [j.id, 0]));
  const onEntry = new Map<number, Set<number>>();
  const recused = new Set<string>();
  for (const a of existing.rows) {
    if (a.status === 'recused') {
      recused.add(`${a.contest_id}:${a.jury_id}`);
      continue;
    }
    if (a.exam_id !== exam.id) continue;
    if (!onEntry.has(a.contest_id)) onEntry.set(a.contest_id, new Set());
    onEntry.get(a.contest_id)!.add(a.jury_id);
    if (load.has(a.jury_id)) load.set(a.jury_id, load.get(a.jury_id)! + 1);
  }

  const jurorKeys = jurors.rows.map((j) => ({ id: j.id, key: companyKey(j.company) }));
  const candidates = entries.rows.map((entry) => {
    const key = companyKey(entry.company);
    const taken = onEntry.get(entry.id) ?? new Set<number>();
    let conflicted = 0;
    const possible: number[] = [];
    for (const j of jurorKeys) {
      if (taken.has(j.id)) continue;
      if ((key !== '' && j.key === key) || recused.has(`${entry.id}:${j.id}`)) {
        conflicted++;
        continue;
      }
      possible.push(j.id);
    }
    return { id: entry.id, taken, possible, conflicted, need: Math.max(0, perEntry - taken.size) };
  });
  // Most constrained first (fewest possible jurors per missing slot), then by entry id.
  const order = candidates.filter((c) => c.need > 0).sort((a, b) => a.possible.length - a.need - (b.possible.length - b.need) || a.id - b.id);

  const planned: PlannedAssignment[] = [];
  const short: AutoAssignPlan['short'] = [];
  for (const entry of order) {
    const picks = [...entry.possible].sort((a, b) => load.get(a)! - load.get(b)! || a - b).slice(0, entry.need);
    for (const jury_id of picks) {
      planned.push({ contest_id: entry.id, jury_id });
      load.set(jury_id, load.get(jury_id)! + 1);
    }
    if (picks.length < entry.need) {
      short.push({
        contest_id: entry.id,
        assigned: entry.taken.size + picks.length,
        missing: entry.need - picks.length,
        reason: entry.conflicted > 0 ? 'conflict_of_interest' : 'not_enough_jurors',
      });
    }
  }
  planned.sort((a, b) => a.contest_id - b.contest_id || a.jury_id - b.jury_id);
  short.sort((a, b) => a.contest_id - b.contest_id);
  return {
    planned,
    load: jurors.rows.map((j) => ({ jury_id: j.id, name: j.name, count: load.get(j.id)! })),
    short,
  };
}
