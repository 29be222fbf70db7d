import { sql } from 'kysely';
import { conflict, notFound, validationFailed } from '../../../server/index.js';
import { assertExamWritable } from '../../editions/server.js';
import type { ExamPanel } from '../shared/season-types.js';
import { examScope } from './eligibility.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import type { JudgingDb } from './tables.js';

/** Whether the exam has a saved panel; the jurors on it (saved, or the round's active jurors by default). */
export async function panelOf(db: JudgingDb, exam: { id: number; round: number }): Promise<{ saved: boolean; ids: number[] }> {
  // Joined to the jurors: a deleted juror leaves the panel with them.
  const rows = await db
    .selectFrom('exam_panels as p')
    .innerJoin('juries as j', 'j.id', 'p.jury_id')
    .select('p.jury_id')
    .where('p.exam_id', '=', exam.id)
    .orderBy('p.jury_id')
    .execute();
  if (rows.length > 0) return { saved: true, ids: rows.map((r) => r.jury_id) };
  const active = await db.selectFrom('juries').select('id').where('round', '=', exam.round).where('is_active', '=', true).orderBy('id').execute();
  return { saved: false, ids: active.map((r) => r.id) };
}

/**
 * Whether a juror sits on the exam's panel: on its saved panel, or (none saved yet) a juror of its
 * round. Activity is its own rule (`inactive`).
 */
export async function isOnPanel(db: JudgingDb, exam: { id: number; round: number }, juryId: number): Promise<boolean> {
  const { rows } = await sql<{ saved: boolean; on: boolean; round_match: boolean }>`
    select exists (select 1 from exam_panels p join juries j on j.id = p.jury_id where p.exam_id = ${exam.id}) as saved,
           exists (select 1 from exam_panels where exam_id = ${exam.id} and jury_id = ${juryId}) as on,
           exists (select 1 from juries where id = ${juryId} and round = ${exam.round}) as round_match`.execute(db);
  const row = rows[0]!;
  return row.saved ? row.on : row.round_match;
}

/** Live assignments (not recused) per juror: in the exam, and in every exam of its edition. */
export async function jurorLoads(db: JudgingDb, exam: { id: number; edition_id: number | null }) {
  const { rows } = await sql<{ jury_id: number; load: number; edition_load: number }>`
    select a.jury_id, count(*) filter (where a.exam_id = ${exam.id})::int as load, count(*)::int as edition_load
    from assignments a join exams e on e.id = a.exam_id
    where a.status <> 'recused' and e.edition_id is not distinct from ${exam.edition_id}
    group by a.jury_id`.execute(db);
  return new Map(rows.map((r) => [r.jury_id, { load: r.load, edition_load: r.edition_load }]));
}

/** The category ids of each juror's application's expertise (jurors approved from an application). */
export async function jurorExpertise(db: JudgingDb): Promise<Map<number, number[]>> {
  const rows = await db.selectFrom('applicants').select(['jury_id', 'expertise']).where('jury_id', 'is not', null).execute();
  const expertise = new Map<number, number[]>();
  for (const r of rows) {
    const ids = Array.isArray(r.expertise) ? r.expertise.map(Number).filter(Number.isInteger) : [];
    expertise.set(r.jury_id!, [...new Set([...(expertise.get(r.jury_id!) ?? []), ...ids])]);
  }
  return expertise;
}

/**
 * The exam's panel for the editor: who is on it, and every active juror (and any on the panel)
 * with their load in the exam and across its edition, and their expertise.
 */
export async function getPanel(db: JudgingDb, examId: number): Promise<ExamPanel> {
  const exam = await examScope(db, examId);
  if (!exam) throw notFound('Examination not found.');
  const panel = await panelOf(db, exam);
  const on = new Set(panel.ids);
  const [jurors, loads, expertise] = await Promise.all([
    db.selectFrom('juries').select(['id', 'name', 'company', 'round', 'is_active']).orderBy('name').orderBy('id').execute(),
    jurorLoads(db, exam),
    jurorExpertise(db),
  ]);
  return {
    exam_id: examId,
    default: !panel.saved,
    jury_ids: panel.ids,
    jurors: jurors
      .filter((j) => j.is_active || on.has(j.id))
      .map((j) => ({
        ...j,
        on_panel: on.has(j.id),
        load: loads.get(j.id)?.load ?? 0,
        edition_load: loads.get(j.id)?.edition_load ?? 0,
        expertise: expertise.get(j.id) ?? [],
      })),
  };
}

/**
 * Saves the exam's panel (404 unknown exam, 409 once final or in an archived edition, 422 naming
 * unknown or inactive jurors).
 * Assignments already made stay; later ones take only the panel's jurors. Audited with the jurors
 * added and removed.
 */
export async function setPanel(db: JudgingDb, examId: number, juryIds: readonly number[], actor: Actor): Promise<ExamPanel> {
  const wanted = [...new Set(juryIds)].sort((a, b) => a - b);
  await db.transaction().execute(async (trx) => {
    const exam = await trx.selectFrom('exams').select(['id', 'round', 'status']).where('id', '=', examId).forUpdate().executeTakeFirst();
    if (!exam) throw notFound('Examination not found.');
    await assertExamWritable(trx, examId);
    if (exam.status === 'final') {
      throw conflict('The examination is final: its panel cannot change.', [
        { path: 'jury_ids', keyword: 'final', messageKey: 'judging.errors.exam_final', params: {} },
      ]);
    }
    const found = wanted.length ? await trx.selectFrom('juries').select(['id', 'is_active']).where('id', 'in', wanted).execute() : [];
    const known = new Map(found.map((j) => [j.id, j.is_active]));
    const bad = wanted.filter((id) => !known.get(id));
    if (bad.length) {
      throw validationFailed(
        bad.map((id) => ({
          path: `jury_ids.${wanted.indexOf(id)}`,
          keyword: known.has(id) ? 'inactive' : 'exists',
          messageKey: known.has(id) ? 'judging.rules.inactive' : 'judging.errors.record_missing',
          params: { jury_id: id },
        })),
        'Every juror on a panel must exist and be active.',
      );
    }
    const before = await panelOf(trx, exam);
    await trx.deleteFrom('exam_panels').where('exam_id', '=', examId).execute();
    if (wanted.length)
      await trx
        .insertInto('exam_panels')
        .values(wanted.map((jury_id) => ({ exam_id: examId, jury_id })))
        .execute();
    await writeJudgingAudit(trx, {
      action: 'exam.panel',
      userId: actor.userId,
      entity: 'exam',
      entityId: examId,
      ip: actor.ip,
      details: {
        jury_ids: wanted,
        added: wanted.filter((id) => !before.ids.includes(id)),
        removed: before.ids.filter((id) => !wanted.includes(id)),
      },
    });
  });
  return getPanel(db, examId);
}
