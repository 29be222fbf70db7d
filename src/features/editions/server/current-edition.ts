import { type Kysely, sql } from 'kysely';
import { conflict } from '../../../server/index.js';
import { ARCHIVED_STATUS, EDITION_ARCHIVED, type EditionSummary } from '../shared/edition-contract.js';

/** Whether `id` can be a row's id (a positive 32-bit integer): anything else names no record. */
/** An edition being prepared: chosen only by those who pick it. */
const DRAFT_STATUS = 'draft';

const isRowId = (id: unknown): id is number => typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;

/** The query of {@link defaultEditionId}'s edition (one row, or none). */
const defaultEdition = (db: Kysely<any>) =>
  db
    .selectFrom('editions')
    .select('id')
    .where('status', '<>', ARCHIVED_STATUS)
    .orderBy(sql`case when status = ${DRAFT_STATUS} then 1 else 0 end`)
    .orderBy('year', 'desc')
    .orderBy('id', 'desc')
    .limit(1);

/** The query of {@link chosenEditionId}'s edition (one row, or none). */
const chosenEdition = (db: Kysely<any>, userId: number) =>
  db
    .selectFrom('user_editions')
    .innerJoin('editions', 'editions.id', 'user_editions.edition_id')
    .select('editions.id')
    .where('user_editions.user_id', '=', userId);

/**
 * The newest edition that is neither archived nor a draft (highest year, then highest id), else the
 * newest draft, or `null` when every edition is archived or there is none: the current edition of
 * anyone who has not chosen one. A draft being prepared for next year moves nobody into it.
 */
export async function defaultEditionId(db: Kysely<any>): Promise<number | null> {
  const row = await defaultEdition(db).executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** The edition a person chose in the header, while it exists; `null` otherwise. */
export async function chosenEditionId(db: Kysely<any>, userId: number): Promise<number | null> {
  const chosen = await chosenEdition(db, userId).executeTakeFirst();
  return chosen ? Number(chosen.id) : null;
}

/**
 * The edition a person works in: the one they chose in the header (kept in `user_editions`) while
 * it exists, else the newest non-archived one ({@link defaultEditionId}); `null` without editions.
 * One statement: every list of an entity with editions may ask it.
 *
 * @example const editionId = await currentEditionId(db, request.user.id);
 */
export async function currentEditionId(db: Kysely<any>, userId: number): Promise<number | null> {
  const row = await sql<{ id: number | string | null }>`select coalesce((${chosenEdition(db, userId)}), (${defaultEdition(db)})) as id`.execute(db);
  const id = row.rows[0]?.id;
  return id === null || id === undefined ? null : Number(id);
}

/** One edition's summary, or `undefined`. */
export async function editionById(db: Kysely<any>, id: number): Promise<EditionSummary | undefined> {
  const row = await db.selectFrom('editions').select(['id', 'name', 'year', 'status']).where('id', '=', id).executeTakeFirst();
  return row ? { id: Number(row.id), name: String(row.name), year: Number(row.year), status: String(row.status) } : undefined;
}

/** The 409 an archived edition answers any write with (`keyword` names it, `messageKey` words it for the client). */
export function editionArchived(edition: { id: number; name: string }) {
  return conflict(`Edition "${edition.name}" (${edition.id}) is archived: it is read-only.`, [
    { path: '', keyword: EDITION_ARCHIVED, messageKey: 'entities.edition.errors.archived', params: { edition: edition.name } },
  ]);
}

/**
 * Refuses a write into an archived edition with a 409 `edition_archived`; a `null` or unknown
 * edition passes (records without an edition are not locked by one).
 *
 * @example await assertEditionWritable(trx, exam.edition_id); // before changing an exam's grades
 */
export async function assertEditionWritable(db: Kysely<any>, editionId: number | null | undefined): Promise<void> {
  if (!isRowId(editionId)) return;
  const edition = await editionById(db, editionId);
  if (edition && edition.status === ARCHIVED_STATUS) throw editionArchived(edition);
}

/**
 * {@link assertEditionWritable} for an exam by its id: the judging and results services call it
 * before any write on an exam's assignments, grades or results. An unknown exam passes (the caller
 * answers its own 404).
 */
export async function assertExamWritable(db: Kysely<any>, examId: number): Promise<void> {
  if (!isRowId(examId)) return;
  const row = await db.selectFrom('exams').select('edition_id').where('id', '=', examId).executeTakeFirst();
  await assertEditionWritable(db, row?.edition_id as number | null | undefined);
}
