import { conflict, notFound, validationFailed } from '../../../server/index.js';
import type { DeclaredConflict } from '../shared/assignment-rules.js';
import { companyKey } from '../shared/company-key.js';
import type { JuryConflict, JuryConflictInput } from '../shared/season-types.js';
import { type Actor, writeJudgingAudit } from './judging-audit.js';
import { recuseIn } from './jury-portal.service.js';
import type { JudgingDb } from './tables.js';

const COLUMNS = ['id', 'jury_id', 'kind', 'contest_id', 'name', 'reason', 'declared_by', 'created_at'] as const;

/** The declared conflicts of each of the jurors (all jurors when `juryIds` is not given). */
export async function declaredConflicts(db: JudgingDb, juryIds?: readonly number[]): Promise<Map<number, DeclaredConflict[]>> {
  const byJuror = new Map<number, DeclaredConflict[]>();
  if (juryIds && juryIds.length === 0) return byJuror;
  let query = db.selectFrom('jury_conflicts').select(['jury_id', 'kind', 'contest_id', 'name']);
  if (juryIds) query = query.where('jury_id', 'in', [...juryIds]);
  for (const r of await query.execute()) {
    const list = byJuror.get(r.jury_id) ?? [];
    list.push({ kind: r.kind as DeclaredConflict['kind'], contest_id: r.contest_id, name: r.name });
    byJuror.set(r.jury_id, list);
  }
  return byJuror;
}

/** A juror's declared conflicts, newest first (404 for an unknown juror). */
export async function listConflicts(db: JudgingDb, juryId: number): Promise<JuryConflict[]> {
  const juror = await db.selectFrom('juries').select('id').where('id', '=', juryId).executeTakeFirst();
  if (!juror) throw notFound('Juror not found.');
  const rows = await db.selectFrom('jury_conflicts').select(COLUMNS).where('jury_id', '=', juryId).orderBy('id', 'desc').execute();
  return rows as unknown as JuryConflict[];
}

const reasonOf = (reason: string) => {
  const text = reason.trim();
  if (text.length < 3 || text.length > 500) {
    throw validationFailed([{ path: 'reason', keyword: 'length', messageKey: 'judging.errors.reason_length', params: { min: 3, max: 500 } }]);
  }
  return text;
};

/**
 * Declares a conflict of interest for a juror (an admin's entry): with a company or a brand (by
 * name, compared case-, punctuation- and legal-form-insensitively) or with one entry. 404 unknown
 * juror; 422 a missing name or entry, or a name with nothing to compare; 409 the same conflict
 * twice. Later assignments of the juror break it on every write path; assignments already made
 * stay (the matrix shows them as conflicts). Audited.
 */
export async function addConflict(db: JudgingDb, juryId: number, input: JuryConflictInput, actor: Actor): Promise<JuryConflict> {
  const reason = reasonOf(input.reason);
  return db.transaction().execute(async (trx) => {
    const juror = await trx.selectFrom('juries').select('id').where('id', '=', juryId).forUpdate().executeTakeFirst();
    if (!juror) throw notFound('Juror not found.');
    let contestId: number | null = null;
    let name: string | null = null;
    if (input.kind === 'entry') {
      if (!input.contest_id) throw validationFailed([{ path: 'contest_id', keyword: 'required', messageKey: 'validation.required', params: {} }]);
      const contest = await trx.selectFrom('contests').select('id').where('id', '=', input.contest_id).executeTakeFirst();
      if (!contest) throw validationFailed([{ path: 'contest_id', keyword: 'exists', messageKey: 'judging.errors.record_missing', params: {} }]);
      contestId = contest.id;
    } else {
      name = (input.name ?? '').trim();
      if (!companyKey(name)) throw validationFailed([{ path: 'name', keyword: 'required', messageKey: 'judging.errors.conflict_name', params: {} }]);
    }
    const key = name === null ? null : companyKey(name);
    const same = await trx
      .selectFrom('jury_conflicts')
      .select('id')
      .where('jury_id', '=', juryId)
      .where('kind', '=', input.kind)
      .where((eb) => (contestId === null ? eb('name_key', '=', key) : eb('contest_id', '=', contestId)))
      .executeTakeFirst();
    if (same) {
      throw conflict('This conflict is already declared for the juror.', [
        { path: input.kind === 'entry' ? 'contest_id' : 'name', keyword: 'unique', messageKey: 'judging.errors.conflict_exists', params: {} },
      ]);
    }
    return insertConflict(trx, { jury_id: juryId, kind: input.kind, contest_id: contestId, name, reason, declared_by: 'admin' }, actor);
  });
}

async function insertConflict(
  trx: JudgingDb,
  row: { jury_id: number; kind: string; contest_id: number | null; name: string | null; reason: string; declared_by: 'admin' | 'juror' },
  actor: Actor,
): Promise<JuryConflict> {
  const created = await trx
    .insertInto('jury_conflicts')
    .values({ ...row, name_key: row.name === null ? null : companyKey(row.name), user_id: actor.userId })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  await writeJudgingAudit(trx, {
    action: 'jury.conflict.declare',
    userId: actor.userId,
    entity: 'jury',
    entityId: row.jury_id,
    ip: actor.ip,
    details: { conflict_id: created.id, kind: row.kind, contest_id: row.contest_id, name: row.name, reason: row.reason, declared_by: row.declared_by },
  });
  return created as unknown as JuryConflict;
}

/** Withdraws a declared conflict of the juror (404 when it is not theirs). Audited. */
export async function removeConflict(db: JudgingDb, juryId: number, conflictId: number, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('jury_conflicts').where('id', '=', conflictId).where('jury_id', '=', juryId).returning(COLUMNS).executeTakeFirst();
    if (!row) throw notFound('Conflict not found.');
    await writeJudgingAudit(trx, {
      action: 'jury.conflict.delete',
      userId: actor.userId,
      entity: 'jury',
      entityId: juryId,
      ip: actor.ip,
      details: { conflict_id: conflictId, kind: row.kind, contest_id: row.contest_id, name: row.name },
    });
  });
}

/**
 * "I know this entry": the assigned juror declares a conflict with the assignment's entry and
 * recuses from it with the reason, in one transaction (403 another juror's assignment; 409 once
 * submitted, recused or final, as a recusal). The entry is then never assigned to them again.
 */
export async function declareEntryConflict(db: JudgingDb, input: { assignmentId: number; juryId: number; reason: string; userId: number; ip: string | null }) {
  const reason = reasonOf(input.reason);
  return db.transaction().execute(async (trx) => {
    const recused = await recuseIn(trx, { ...input, reason });
    const exists = await trx
      .selectFrom('jury_conflicts')
      .select('id')
      .where('jury_id', '=', recused.jury_id)
      .where('kind', '=', 'entry')
      .where('contest_id', '=', recused.contest_id)
      .executeTakeFirst();
    const declared = exists
      ? null
      : await insertConflict(
          trx,
          { jury_id: recused.jury_id, kind: 'entry', contest_id: recused.contest_id, name: null, reason, declared_by: 'juror' },
          { userId: input.userId, ip: input.ip },
        );
    return { id: recused.id, exam_id: recused.exam_id, status: recused.status, recuse_reason: recused.recuse_reason, conflict_id: declared?.id ?? exists!.id };
  });
}
