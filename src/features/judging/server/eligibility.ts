import { sql } from 'kysely';
import type { EntrySource } from '../shared/season-types.js';
import { shortlistedEntries } from './shortlisted-entries.js';
import type { JudgingDb } from './tables.js';

/** What eligibility reads of an exam. */
export interface ExamScope {
  id: number;
  category_id: number;
  edition_id: number | null;
  round: number;
}

/** One entry an exam takes, with how it came in. */
export interface EligibleEntry {
  contest_id: number;
  status: string;
  category_id: number;
  edition_id: number | null;
  source: EntrySource;
}

/** An exam's scope (404-free: undefined when there is no such exam). */
export async function examScope(db: JudgingDb, examId: number): Promise<(ExamScope & { status: string; name: string }) | undefined> {
  return db.selectFrom('exams').select(['id', 'name', 'category_id', 'edition_id', 'round', 'status']).where('id', '=', examId).executeTakeFirst();
}

/**
 * The entries an exam takes (§17), in contest id order: Round 1 the `approved` contests of its
 * category and edition (an exam without an edition takes the contests without one); a later round
 * exactly the entries shortlisted into it (whatever their status now).
 */
export async function eligibleEntries(db: JudgingDb, exam: ExamScope): Promise<EligibleEntry[]> {
  if (exam.round <= 1) {
    const rows = await sql<{ id: number; status: string; category_id: number; edition_id: number | null }>`
      select id, status, category_id, edition_id from contests
      where category_id = ${exam.category_id} and edition_id is not distinct from ${exam.edition_id} and status = 'approved'
      order by id`.execute(db);
    return rows.rows.map((c) => ({ contest_id: c.id, status: c.status, category_id: c.category_id, edition_id: c.edition_id, source: { kind: 'approved' } }));
  }
  const shortlisted = await shortlistedEntries(db, exam.id);
  if (shortlisted.length === 0) return [];
  const from = new Map(shortlisted.map((s) => [Number(s.contest_id), s.source_exam_id === null ? null : Number(s.source_exam_id)]));
  const rows = await db
    .selectFrom('contests')
    .select(['id', 'status', 'category_id', 'edition_id'])
    .where('id', 'in', [...from.keys()])
    .orderBy('id')
    .execute();
  return rows.map((c) => ({
    contest_id: c.id,
    status: c.status,
    category_id: c.category_id,
    edition_id: c.edition_id,
    source: { kind: 'shortlisted', exam_id: from.get(c.id) ?? null },
  }));
}

/** Whether the exam takes the contest (see {@link eligibleEntries}). */
export async function isEligible(db: JudgingDb, exam: ExamScope, contestId: number): Promise<boolean> {
  if (exam.round <= 1) {
    const row = await sql<{ ok: boolean }>`
      select true as ok from contests where id = ${contestId} and category_id = ${exam.category_id}
        and edition_id is not distinct from ${exam.edition_id} and status = 'approved'`.execute(db);
    return row.rows.length > 0;
  }
  return (await shortlistedEntries(db, exam.id)).some((s) => Number(s.contest_id) === contestId);
}
