import type { ShortlistedEntries } from '../../judging/server.js';
import { resultsDb } from './tables.js';

/**
 * The entries shortlisted into an exam (`exam_entries`), registered with judging's
 * `provideShortlistedEntries`: a later round's eligible entries, with the exam each came from.
 */
export const shortlistedEntriesOf: ShortlistedEntries = async (db, examId) =>
  (await resultsDb(db).selectFrom('exam_entries').select(['contest_id', 'source_exam_id']).where('exam_id', '=', examId).orderBy('contest_id').execute()).map(
    (r) => ({ contest_id: Number(r.contest_id), source_exam_id: r.source_exam_id === null ? null : Number(r.source_exam_id) }),
  );
