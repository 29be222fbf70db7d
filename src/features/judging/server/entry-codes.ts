import { randomInt } from 'node:crypto';
import { blindCode, CODE_ALPHABET } from '../shared/blind-code.js';
import type { JudgingDb } from './tables.js';

/** Attempts at drawing codes that no other entry of the exam holds. */
const ATTEMPTS = 8;
const draw = () => randomInt(CODE_ALPHABET.length) / CODE_ALPHABET.length;

/** The blind codes of an exam's entries, by contest id. */
export async function codesOf(db: JudgingDb, examId: number, contestIds?: readonly number[]): Promise<Map<number, string>> {
  if (contestIds && contestIds.length === 0) return new Map();
  let query = db.selectFrom('entry_codes').select(['contest_id', 'code']).where('exam_id', '=', examId);
  if (contestIds) query = query.where('contest_id', 'in', [...contestIds]);
  return new Map((await query.execute()).map((r) => [Number(r.contest_id), r.code]));
}

/**
 * Gives every listed entry of the exam its blind code (an entry keeps the one it has), and answers
 * the codes of all of them. A code is the round's prefix and five random characters, unique in the
 * exam (the table's constraint; a drawn code another entry holds is drawn again). Safe to race: a
 * second writer keeps the first one's code.
 */
export async function ensureCodes(db: JudgingDb, exam: { id: number; round: number }, contestIds: readonly number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(contestIds)];
  let codes = await codesOf(db, exam.id, wanted);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const missing = wanted.filter((id) => !codes.has(id));
    if (missing.length === 0) return codes;
    const drawn = new Set<string>();
    const values = missing.map((contest_id) => {
      let code = blindCode(exam.round, draw);
      while (drawn.has(code)) code = blindCode(exam.round, draw);
      drawn.add(code);
      return { exam_id: exam.id, contest_id, code };
    });
    await db
      .insertInto('entry_codes')
      .values(values)
      .onConflict((oc) => oc.doNothing())
      .execute();
    codes = await codesOf(db, exam.id, wanted);
  }
  throw new Error(`Could not draw unique blind codes for examination ${exam.id}.`);
}

/**
 * The blind codes of an exam's entries, after giving one to every entry assigned in it that has
 * none yet (assignments written before codes existed, or straight into the table by a seed). What
 * admins' views (the matrix, the moderation) show beside the contest's id; only `contestIds` when given.
 */
export async function assignedCodes(db: JudgingDb, examId: number, contestIds?: readonly number[]): Promise<Map<number, string>> {
  const exam = await db.selectFrom('exams').select(['id', 'round']).where('id', '=', examId).executeTakeFirst();
  if (!exam) return new Map();
  const assigned = await db.selectFrom('assignments').select('contest_id').distinct().where('exam_id', '=', examId).execute();
  if (assigned.length > 0) {
    await ensureCodes(
      db,
      exam,
      assigned.map((a) => a.contest_id),
    );
  }
  return codesOf(db, examId, contestIds);
}
