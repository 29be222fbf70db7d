import type { JudgingDb } from './tables.js';

/** An entry shortlisted into an exam, and the exam it was shortlisted from (null when unknown). */
export interface ShortlistedEntry {
  contest_id: number;
  source_exam_id: number | null;
}

/**
 * The entries shortlisted into an exam: a later round's eligible entries. The shortlist is another
 * feature's (results, which depends on judging): it provides them with
 * {@link provideShortlistedEntries}, and judging reads eligibility without knowing its tables.
 */
export type ShortlistedEntries = (db: JudgingDb, examId: number) => Promise<ShortlistedEntry[]>;

let provider: ShortlistedEntries | undefined;

/** Registers the source of the shortlisted entries (the last one registered answers). */
export function provideShortlistedEntries(entries: ShortlistedEntries): void {
  provider = entries;
}

/** The entries shortlisted into the exam, from the registered source; none without one. */
export async function shortlistedEntries(db: JudgingDb, examId: number): Promise<ShortlistedEntry[]> {
  return provider ? provider(db, examId) : [];
}
