import type { EntityRegistry } from '../../../server/index.js';
import { conflict, notFound, runBeforeWrite, toColumnValues, validationFailed, writeAudit } from '../../../server/index.js';
import { assertExamWritable } from '../../editions/server.js';
import { type ExamFinalHandler, entrantPortal, finalisedConflict, type JudgingMail, mailTo, recordRecipients } from '../../judging/server.js';
import type { ShortlistRequest, ShortlistResult } from '../shared/results-contract.js';
import { shortlistSelection } from '../shared/shortlist.js';
import { type ExamRow, readExam } from './exam-data.js';
import { assertExamNotFinal, examLock, examResults, gradedContests, liveResults } from './results.service.js';
import { type EntityDb, entityDb, resultsDb } from './tables.js';

/** Who acts, for the audit log (`userId: null`: the system, as the demo data's finalising). */
export interface Actor {
  userId: number | null;
  ip: string | null;
}

const statusEnum = (registry: EntityRegistry): unknown[] => {
  const property = registry.byName.get('exam')?.schema.properties?.status as { enum?: unknown[] } | undefined;
  return property?.enum ?? [];
};

/** The Round 2 exam of a category, or null. */
async function roundTwoExam(db: EntityDb, registry: EntityRegistry, source: ExamRow) {
  const exam = registry.byName.get('exam')!;
  // Within the source's edition: last year's Round 2 is not this year's.
  const row = await db
    .selectFrom(exam.descriptor.table)
    .select('id')
    .where('category_id', '=', source.category_id)
    .where('round', '=', 2)
    .$if(!!exam.schema.properties?.edition_id, (q) =>
      source.edition_id == null ? q.where('edition_id', 'is', null) : q.where('edition_id', '=', source.edition_id),
    )
    .orderBy('id')
    .executeTakeFirst();
  return row ? readExam(db, registry, Number(row.id)) : null;
}

/** The Round 2 exam's name: 'Round 1' becomes 'Round 2', or ' (Round 2)' is added, within the name's maximum length. */
function roundTwoName(name: string, maxLength = Number.POSITIVE_INFINITY): string {
  if (/Round 1/i.test(name)) return name.replace(/Round 1/i, 'Round 2');
  const suffix = ' (Round 2)';
  return `${name.slice(0, Math.max(0, maxLength - suffix.length)).trimEnd()}${suffix}`;
}

/**
 * Shortlists entries of a Round 1 exam into its category's Round 2 exam: `top` N by
 * rank (entries tied with the N-th go too) or every entry whose final score (the exam's ranking
 * basis) is at least `min_score` (`shortlistSelection`). Creates the Round 2 exam as a draft (criteria and maximum copied) when missing.
 * Adds the selected entries, removes entries no longer selected, but keeps (and reports) an entry
 * that already has a Round 2 grade. Running it again with the same rule changes nothing.
 */
export async function shortlist(db: EntityDb, registry: EntityRegistry, examId: number, body: ShortlistRequest, actor: Actor): Promise<ShortlistResult> {
  const source = await readExam(db, registry, examId);
  await assertExamWritable(db, examId);
  if (source.round !== 1) throw conflict(`Shortlisting starts from a Round 1 examination; "${source.name}" is Round ${source.round}.`);
  const hasTop = body.top !== undefined;
  if (hasTop === (body.min_score !== undefined)) {
    throw validationFailed([{ path: 'top', keyword: 'oneOf', messageKey: 'results.errors.shortlistRule', params: {} }], 'Give either top or min_score.');
  }
  const results = await examResults(db, registry, examId);
  const selected = shortlistSelection(results.entries, hasTop ? { top: body.top! } : { min_score: body.min_score! });

  let target = await roundTwoExam(db, registry, source);
  const dryRun = body.dry_run === true;
  const createdExam = !target;
  if (target) await assertExamNotFinal(db, target);
  if (!target && !dryRun) {
    const exam = registry.byName.get('exam')!;
    const statuses = statusEnum(registry);
    const data: Record<string, unknown> = {
      name: roundTwoName(source.name, (exam.schema.properties?.name as { maxLength?: number } | undefined)?.maxLength),
      category_id: source.category_id,
      ...(source.edition_id != null ? { edition_id: source.edition_id } : {}),
      round: 2,
      max_score: source.max_score,
      status: statuses.includes('draft') ? 'draft' : 'closed',
      ...(source.criteria !== undefined ? { criteria: source.criteria } : {}),
    };
    // Not through the create form (exams are not created by hand): the same hooks and columns.
    const created = await db.transaction().execute(async (trx) => {
      await runBeforeWrite({ entity: exam, operation: 'create', data, db: trx });
      return trx.insertInto(exam.descriptor.table).values(toColumnValues(exam, data)).returning('id').executeTakeFirstOrThrow();
    });
    target = await readExam(db, registry, Number(created.id));
  }

  const current = target
    ? new Set((await resultsDb(db).selectFrom('exam_entries').select('contest_id').where('exam_id', '=', target.id).execute()).map((r) => r.contest_id))
    : new Set<number>();
  const graded = target ? await gradedContests(db, registry, target.id) : new Set<number>();
  const chosen = new Set(selected);
  const added = selected.filter((id) => !current.has(id) && !graded.has(id));
  const unchanged = selected.filter((id) => current.has(id) || graded.has(id));
  const removed = [...current].filter((id) => !chosen.has(id) && !graded.has(id)).sort((a, b) => a - b);
  const keptGraded = [...new Set([...current, ...graded])].filter((id) => !chosen.has(id) && graded.has(id)).sort((a, b) => a - b);

  if (!dryRun && target && (added.length || removed.length || createdExam)) {
    await db.transaction().execute(async (trx) => {
      if (added.length) {
        await resultsDb(trx)
          .insertInto('exam_entries')
          .values(added.map((contest_id) => ({ exam_id: target!.id, contest_id, source_exam_id: examId, added_by: actor.userId })))
          .execute();
      }
      if (removed.length) await resultsDb(trx).deleteFrom('exam_entries').where('exam_id', '=', target!.id).where('contest_id', 'in', removed).execute();
      await writeAudit(trx, {
        action: 'results.shortlist',
        userId: actor.userId,
        ip: actor.ip,
        entity: 'exam',
        entityId: target!.id,
        details: {
          source_exam_id: examId,
          rule: hasTop ? { top: body.top } : { min_score: body.min_score },
          ranking: results.ranking,
          created_exam: createdExam,
          added,
          removed,
          kept_graded: keptGraded,
        },
      });
    });
  }
  return { dryRun, targetExamId: target?.id ?? null, targetExamName: target?.name ?? null, createdExam, selected, added, removed, keptGraded, unchanged };
}

/** Sets (or with `awardId` undefined, clears) an admin's override of one entry's award; audited with its reason. */
export async function overrideAward(
  db: EntityDb,
  registry: EntityRegistry,
  examId: number,
  contestId: number,
  change: { awardId: number | null | undefined; reason: string },
  actor: Actor,
): Promise<void> {
  const exam = await readExam(db, registry, examId);
  await assertExamWritable(db, examId);
  await assertExamNotFinal(db, exam);
  const results = await liveResults(db, registry, examId);
  const entry = results.entries.find((e) => e.contestId === contestId);
  if (!entry) throw notFound(`Contest ${contestId} is not an entry of examination ${examId}.`);
  if (change.awardId !== null && change.awardId !== undefined) {
    const table = registry.byName.get('award_category')?.descriptor.table;
    const found = table ? await db.selectFrom(table).select('id').where('id', '=', change.awardId).executeTakeFirst() : undefined;
    if (!found) throw validationFailed([{ path: 'award_category_id', keyword: 'exists', messageKey: 'results.errors.unknownAward', params: {} }]);
  }
  await db.transaction().execute(async (trx) => {
    const before = await resultsDb(trx)
      .selectFrom('award_overrides')
      .selectAll()
      .where('exam_id', '=', examId)
      .where('contest_id', '=', contestId)
      .executeTakeFirst();
    await resultsDb(trx).deleteFrom('award_overrides').where('exam_id', '=', examId).where('contest_id', '=', contestId).execute();
    if (change.awardId !== undefined) {
      await resultsDb(trx)
        .insertInto('award_overrides')
        .values({ exam_id: examId, contest_id: contestId, award_category_id: change.awardId, reason: change.reason, user_id: actor.userId })
        .execute();
    }
    await writeAudit(trx, {
      action: 'results.award_override',
      userId: actor.userId,
      ip: actor.ip,
      entity: 'exam',
      entityId: examId,
      details: {
        contest_id: contestId,
        reason: change.reason,
        before: before ? { award_category_id: before.award_category_id } : { award_category_id: entry.award?.id ?? null, by_rule: true },
        after: change.awardId === undefined ? { by_rule: true } : { award_category_id: change.awardId },
      },
    });
  });
}

/**
 * The results are final (there is no separate publishing step: finalising publishes them): each
 * submittor with entries in them gets one mail (`resultsPublished`, how many of their entries),
 * in the finalising transaction.
 */
async function mailResultsPublished(trx: EntityDb, registry: EntityRegistry, mail: JudgingMail, exam: { name: string }, contestIds: number[]): Promise<void> {
  const contests = registry.byName.get('contest')?.descriptor.table;
  if (!contests || contestIds.length === 0) return;
  const rows = await trx.selectFrom(contests).select(['id', 'customer_id']).where('id', 'in', contestIds).execute();
  const counts = new Map<number, number>();
  for (const row of rows) if (row.customer_id != null) counts.set(Number(row.customer_id), (counts.get(Number(row.customer_id)) ?? 0) + 1);
  const judging = trx as unknown as Parameters<typeof recordRecipients>[0];
  const recipients = await recordRecipients(judging, 'customer', [...counts.keys()]);
  for (const [customerId, count] of counts) {
    const to = recipients.get(customerId);
    if (to) await mailTo(judging, mail, to, 'resultsPublished', { exam: exam.name, count, url: entrantPortal(mail) });
  }
}

/**
 * Stores the exam's results as they are now in `exam_locks` (answered from then on) and audits
 * `results.finalise`, in the caller's transaction; with `mail`, the submittors are told. 409 when a
 * lock exists already.
 */
async function lockResults(
  trx: EntityDb,
  registry: EntityRegistry,
  exam: { id: number; name: string; previousStatus: string },
  actor: Actor,
  mail?: JudgingMail,
): Promise<void> {
  if (await examLock(trx, exam.id)) throw finalisedConflict(exam);
  const results = await liveResults(trx, registry, exam.id);
  await resultsDb(trx)
    .insertInto('exam_locks')
    .values({ exam_id: exam.id, results: JSON.stringify(results), user_id: actor.userId })
    .execute();
  await writeAudit(trx, {
    action: 'results.finalise',
    userId: actor.userId,
    ip: actor.ip,
    entity: 'exam',
    entityId: exam.id,
    details: { entries: results.entries.length, submitted: results.submitted, previous_status: exam.previousStatus },
  });
  if (mail)
    await mailResultsPublished(
      trx,
      registry,
      mail,
      exam,
      results.entries.map((entry) => entry.contestId),
    );
}

/**
 * Finalises an exam (`POST /exams/{id}/finalise`): its results as they are now are stored and
 * answered from then on, and grades, awards and shortlists into it answer 409. When the exam's
 * status has a `final` value it is set. With `mail` (a person's finalising), the submittors of its
 * entries are told in the same transaction (the demo data's finalising mails no one).
 */
export async function finaliseExam(db: EntityDb, registry: EntityRegistry, examId: number, actor: Actor, mail?: JudgingMail) {
  const exam = await readExam(db, registry, examId);
  await assertExamWritable(db, examId);
  await assertExamNotFinal(db, exam);
  if (statusEnum(registry).includes('closed') && exam.status !== 'closed') {
    throw conflict(`Examination "${exam.name}" (${exam.id}) is ${exam.status}: close it before finalising.`, [
      { path: '', keyword: 'exam_not_closed', messageKey: 'results.errors.examNotClosed', params: { name: exam.name, status: exam.status } },
    ]);
  }
  const table = registry.byName.get('exam')!.descriptor.table;
  await db.transaction().execute(async (trx) => {
    await lockResults(trx, registry, { id: exam.id, name: exam.name, previousStatus: exam.status }, actor, mail);
    if (statusEnum(registry).includes('final'))
      await trx.updateTable(table).set({ status: 'final', updated_at: new Date() }).where('id', '=', examId).execute();
  });
  return examResults(db, registry, examId);
}

/**
 * Judging's status workflow moved an exam to `final` (registered with judging's `onExamFinal`):
 * the results snapshot is stored in the same transaction, as `POST /exams/{id}/finalise` stores it.
 */
export const lockResultsOnExamFinal: ExamFinalHandler = ({ db, registry, exam, actor, mail }) => lockResults(entityDb(db), registry, exam, actor, mail);

/** Reopens a finalised exam, with a reason (audited); its status goes back to `closed` when it was `final`. */
export async function reopenExam(db: EntityDb, registry: EntityRegistry, examId: number, reason: string, actor: Actor) {
  const exam = await readExam(db, registry, examId);
  await assertExamWritable(db, examId);
  const lock = await examLock(db, examId);
  if (!lock && exam.status !== 'final') throw conflict(`Examination "${exam.name}" (${exam.id}) is not final.`);
  const table = registry.byName.get('exam')!.descriptor.table;
  await db.transaction().execute(async (trx) => {
    // Reopens at once: each statement waits for the one before it to commit and then finds nothing
    // left to reopen, so only the first is done and audited; the others are refused.
    const unlocked = await resultsDb(trx).deleteFrom('exam_locks').where('exam_id', '=', examId).returning('exam_id').execute();
    const reopened =
      exam.status === 'final'
        ? await trx
            .updateTable(table)
            .set({ status: 'closed', updated_at: new Date() })
            .where('id', '=', examId)
            .where('status', '=', 'final')
            .returning('id')
            .execute()
        : [];
    if (unlocked.length === 0 && reopened.length === 0) throw conflict(`Examination "${exam.name}" (${exam.id}) is not final.`);
    await writeAudit(trx, {
      action: 'results.reopen',
      userId: actor.userId,
      ip: actor.ip,
      entity: 'exam',
      entityId: examId,
      details: { reason, finalised_at: lock?.at ?? null },
    });
  });
  return examResults(db, registry, examId);
}
