import { sql } from 'kysely';
import { conflictRules } from '../shared/assignment-rules.js';
import { declaredConflicts } from './conflicts.service.js';
import { type ExamScope, eligibleEntries } from './eligibility.js';
import { jurorExpertise, jurorLoads, panelOf } from './panels.service.js';
import type { JudgingDb } from './tables.js';

/** One planned assignment. */
export interface PlannedAssignment {
  contest_id: number;
  jury_id: number;
}

/** Why an entry cannot reach K jurors. */
export type ShortReason = 'panel_too_small' | 'conflict_of_interest' | 'not_enough_jurors';

/** The plan of an auto-assign run. */
export interface AutoAssignPlan {
  planned: PlannedAssignment[];
  /** Every panel juror's load after the plan (existing + planned, recusals excluded): in the exam, and across its edition. */
  load: Array<{ jury_id: number; name: string; count: number; edition_count: number; expert: boolean }>;
  /** Entries that cannot reach K jurors, and why (`conflicts`: panel jurors ruled out by a conflict or a recusal). */
  short: Array<{ contest_id: number; assigned: number; missing: number; conflicts: number; reason: ShortReason }>;
  /** The panel's size (its active jurors) and whether it is the round's default panel. */
  panel: { size: number; default: boolean };
}

/**
 * Plans the assignments that bring every eligible entry of the exam (§17) to `perEntry` jurors,
 * drawn only from its panel's active jurors, never in a conflict of interest (company, brand,
 * declared) or a recusal. Existing assignments count and stay (a second run only fills gaps). The
 * most constrained entries (fewest possible jurors per missing slot) are served first; each slot
 * goes to the juror with the least load across the exam's edition (their assignments in its other
 * exams count), then to one whose application names the exam's category as expertise, then to the
 * lower id. Loads in the edition differ by at most one wherever the conflicts and earlier exams
 * allow. Deterministic: the same data give the same plan.
 */
export async function planAutoAssign(db: JudgingDb, exam: ExamScope, perEntry: number): Promise<AutoAssignPlan> {
  const eligible = await eligibleEntries(db, exam);
  const panel = await panelOf(db, exam);
  const ids = eligible.map((e) => e.contest_id);
  const [facts, jurors, existing, loads, expertise, declared] = await Promise.all([
    ids.length
      ? sql<{ id: number; company: string | null; brand: string | null }>`
          select c.id, cu.company, p.brand_name as brand from contests c
          left join customers cu on cu.id = c.customer_id left join campaigns p on p.id = c.campaign_id
          where c.id in (${sql.join(ids)})`.execute(db)
      : { rows: [] },
    panel.ids.length
      ? db.selectFrom('juries').select(['id', 'name', 'company']).where('id', 'in', panel.ids).where('is_active', '=', true).orderBy('id').execute()
      : [],
    sql<{ contest_id: number; jury_id: number; status: string; exam_id: number }>`
      select a.contest_id, a.jury_id, a.status, a.exam_id from assignments a
      join contests c on c.id = a.contest_id
      where a.exam_id = ${exam.id} or (a.status = 'recused' and c.category_id = ${exam.category_id})`.execute(db),
    jurorLoads(db, exam),
    jurorExpertise(db),
    declaredConflicts(db, panel.ids),
  ]);
  const entryFacts = new Map(facts.rows.map((f) => [f.id, f]));

  const load = new Map<number, number>(jurors.map((j) => [j.id, loads.get(j.id)?.load ?? 0]));
  const editionLoad = new Map<number, number>(jurors.map((j) => [j.id, loads.get(j.id)?.edition_load ?? 0]));
  const expert = new Set(jurors.filter((j) => (expertise.get(j.id) ?? []).includes(exam.category_id)).map((j) => j.id));
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
  }

  const candidates = ids.map((id) => {
    const entry = { id, company: entryFacts.get(id)?.company ?? null, brand: entryFacts.get(id)?.brand ?? null };
    const taken = onEntry.get(id) ?? new Set<number>();
    let conflicted = 0;
    const possible: number[] = [];
    for (const j of jurors) {
      if (taken.has(j.id)) continue;
      const conflicts = conflictRules({ company: j.company, declared: declared.get(j.id) ?? [] }, entry);
      if (conflicts.length > 0 || recused.has(`${id}:${j.id}`)) {
        conflicted++;
        continue;
      }
      possible.push(j.id);
    }
    return { id, taken, possible, conflicted, need: Math.max(0, perEntry - taken.size) };
  });
  // Most constrained first (fewest possible jurors per missing slot), then by entry id.
  const order = candidates.filter((c) => c.need > 0).sort((a, b) => a.possible.length - a.need - (b.possible.length - b.need) || a.id - b.id);

  const planned: PlannedAssignment[] = [];
  const short: AutoAssignPlan['short'] = [];
  const rank = (a: number, b: number) => editionLoad.get(a)! - editionLoad.get(b)! || Number(expert.has(b)) - Number(expert.has(a)) || a - b;
  for (const entry of order) {
    const picks = [...entry.possible].sort(rank).slice(0, entry.need);
    for (const jury_id of picks) {
      planned.push({ contest_id: entry.id, jury_id });
      load.set(jury_id, load.get(jury_id)! + 1);
      editionLoad.set(jury_id, editionLoad.get(jury_id)! + 1);
    }
    if (picks.length < entry.need) {
      short.push({
        contest_id: entry.id,
        assigned: entry.taken.size + picks.length,
        missing: entry.need - picks.length,
        conflicts: entry.conflicted,
        reason: jurors.length < perEntry ? 'panel_too_small' : entry.conflicted > 0 ? 'conflict_of_interest' : 'not_enough_jurors',
      });
    }
  }
  planned.sort((a, b) => a.contest_id - b.contest_id || a.jury_id - b.jury_id);
  short.sort((a, b) => a.contest_id - b.contest_id);
  return {
    planned,
    load: jurors.map((j) => ({ jury_id: j.id, name: j.name, count: load.get(j.id)!, edition_count: editionLoad.get(j.id)!, expert: expert.has(j.id) })),
    short,
    panel: { size: jurors.length, default: !panel.saved },
  };
}
