import { sql } from 'kysely';
import { conflict, forbidden, notFound, validationFailed } from '../../../server/index.js';
import { assertExamWritable } from '../../editions/server.js';
import { ensureCodes } from './entry-codes.js';
import { writeJudgingAudit } from './judging-audit.js';
import type { JudgingDb } from './tables.js';

/**
 * The fields of an entry a juror sees: its content and media, never who entered it (no customer,
 * company, agency, e-mail, phone, campaign, confidential KPI or free-text "other", which may name
 * the agency). Changing this list changes what jurors see: the blindness test reads it too.
 */
export const BLIND_ENTRY_FIELDS = [
  'strategy',
  'insight',
  'creative_idea',
  'connection_plan',
  'objective_based_kpi',
  'logo_url',
  'campaign_kv_url',
  'video_link',
] as const;

/** The jury record of a signed-in juror account, or null. */
export async function juryIdOfUser(db: JudgingDb, userId: number): Promise<number | null> {
  // `jury_id` is the juror role's link column (accounts' migration), not one of the typed system columns.
  const row = await db.selectFrom('users').select(sql<number | null>`jury_id`.as('jury_id')).where('id', '=', userId).executeTakeFirst();
  return row?.jury_id ?? null;
}

/** A juror's name and round for the portal's header, or null. */
export async function jurorHeader(db: JudgingDb, juryId: number) {
  return (await db.selectFrom('juries').select(['id', 'name', 'round']).where('id', '=', juryId).executeTakeFirst()) ?? null;
}

/** The blind codes of the juror's assigned entries, by `exam:contest` (drawn for entries assigned before codes existed). */
async function jurorCodes(db: JudgingDb, rows: ReadonlyArray<{ exam_id: number; contest_id: number }>): Promise<Map<string, string>> {
  const byExam = new Map<number, number[]>();
  for (const r of rows) byExam.set(Number(r.exam_id), [...(byExam.get(Number(r.exam_id)) ?? []), Number(r.contest_id)]);
  const codes = new Map<string, string>();
  for (const [examId, contestIds] of byExam) {
    const exam = await db.selectFrom('exams').select(['id', 'round']).where('id', '=', examId).executeTakeFirstOrThrow();
    for (const [contestId, code] of await ensureCodes(db, exam, contestIds)) codes.set(`${examId}:${contestId}`, code);
  }
  return codes;
}

/**
 * One juror's work, blind: their exams (open, closed or final) with progress, and each assignment
 * with the entry's blind code and content and the juror's own grade. Nothing names the entrant, nor
 * the contest's id.
 */
export async function juryWork(db: JudgingDb, juryId: number, extraFields: readonly string[] = []) {
  // The blind fields, and the ones the entry descriptor's portal form marks for jurors (`jurorFields`).
  const fields = [...BLIND_ENTRY_FIELDS, ...extraFields.filter((f) => !(BLIND_ENTRY_FIELDS as readonly string[]).includes(f))];
  const juror = await db.selectFrom('juries').select(['id', 'name']).where('id', '=', juryId).executeTakeFirst();
  if (!juror) throw notFound('Juror not found.');
  const exams = (
    await sql<{
      id: number;
      name: string;
      round: number;
      status: string;
      max_score: number;
      criteria: unknown;
      opens_at: unknown;
      closes_at: unknown;
      category: string | null;
    }>`
      select e.id, e.name, e.round, e.status, e.max_score, e.criteria, e.opens_at, e.closes_at, ca.name as category
      from exams e left join categories ca on ca.id = e.category_id
      where e.status <> 'draft' and exists (select 1 from assignments a where a.exam_id = e.id and a.jury_id = ${juryId})
      order by e.round, e.id`.execute(db)
  ).rows;
  const rows = (
    await sql<Record<string, unknown>>`
      select a.id, a.exam_id, a.contest_id, a.status, a.recuse_reason,
        ${sql.join(fields.map((f) => sql`c.${sql.ref(f)}`))},
        g.scores, g.remarks, g.total, g.status as grade_status, g.submitted_at, g.updated_at as grade_updated_at
      from assignments a
      join exams e on e.id = a.exam_id and e.status <> 'draft'
      join contests c on c.id = a.contest_id
      left join grades g on g.exam_id = a.exam_id and g.contest_id = a.contest_id and g.jury_id = a.jury_id
      where a.jury_id = ${juryId}
      order by a.exam_id, a.id`.execute(db)
  ).rows;
  const codes = await jurorCodes(db, rows as Array<{ exam_id: number; contest_id: number }>);
  const assignments = rows.map((r) => ({
    id: r.id,
    exam_id: r.exam_id,
    code: codes.get(`${r.exam_id}:${r.contest_id}`) ?? '',
    status: r.status,
    recuse_reason: r.recuse_reason,
    entry: Object.fromEntries(fields.map((f) => [f, r[f]])),
    grade: r.grade_status
      ? { scores: r.scores, remarks: r.remarks, total: r.total, status: r.grade_status, submitted_at: r.submitted_at, updated_at: r.grade_updated_at }
      : null,
  }));
  const progressOf = (examId: number) => {
    const mine = assignments.filter((a) => a.exam_id === examId);
    const count = (status: string) => mine.filter((a) => a.status === status).length;
    return { total: mine.length, assigned: count('assigned'), in_progress: count('in_progress'), submitted: count('submitted'), recused: count('recused') };
  };
  return { juror, exams: exams.map((e) => ({ ...e, progress: progressOf(e.id) })), assignments };
}

/**
 * Recusal: the juror (or an admin) withdraws from an entry with a reason. The assignment becomes
 * `recused`, a draft grade is dropped, and the entry is free for another juror (this one can never
 * be assigned it again). A submitted grade must be reopened first.
 */
export async function recuse(db: JudgingDb, input: { assignmentId: number; juryId: number | null; reason: string; userId: number; ip: string | null }) {
  const reason = input.reason.trim();
  if (reason.length < 3 || reason.length > 500) {
    throw validationFailed([{ path: 'reason', keyword: 'length', messageKey: 'judging.errors.reason_length', params: { min: 3, max: 500 } }]);
  }
  return db.transaction().execute((trx) => recuseIn(trx, { ...input, reason }));
}

/** {@link recuse} in the caller's transaction, with a checked reason. */
export async function recuseIn(trx: JudgingDb, input: { assignmentId: number; juryId: number | null; reason: string; userId: number; ip: string | null }) {
  const reason = input.reason;
  const row = (
    await sql<{ id: number; jury_id: number; status: string; exam_id: number; contest_id: number; exam_status: string }>`
    select a.id, a.jury_id, a.status, a.exam_id, a.contest_id, e.status as exam_status from assignments a join exams e on e.id = a.exam_id
    where a.id = ${input.assignmentId} for update of a`.execute(trx)
  ).rows[0];
  if (!row) throw notFound('Assignment not found.');
  if (input.juryId !== null && row.jury_id !== input.juryId) throw forbidden('Only the assigned juror may recuse from this entry.');
  await assertExamWritable(trx, row.exam_id);
  if (row.exam_status === 'final') throw conflict('The examination is final.');
  if (row.status === 'recused') throw conflict('Already recused from this entry.');
  if (row.status === 'submitted')
    throw conflict('This grade was submitted; an admin must reopen it first.', [
      { path: '', keyword: 'submitted', messageKey: 'judging.errors.grade_submitted', params: {} },
    ]);
  await sql`delete from grades where exam_id = ${row.exam_id} and contest_id = ${row.contest_id} and jury_id = ${row.jury_id} and status = 'draft'`.execute(
    trx,
  );
  const saved = (
    await sql<{ id: number; exam_id: number; contest_id: number; jury_id: number; status: string; recuse_reason: string | null }>`
    update assignments set status = 'recused', recuse_reason = ${reason}, updated_at = now() where id = ${row.id}
    returning id, exam_id, contest_id, jury_id, status, recuse_reason`.execute(trx)
  ).rows[0]!;
  await writeJudgingAudit(trx, {
    action: 'assignment.recuse',
    userId: input.userId,
    entity: 'assignment',
    entityId: row.id,
    ip: input.ip,
    details: { reason },
  });
  return saved;
}
