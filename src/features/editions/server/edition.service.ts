import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { validationFailed, writeAudit } from '../../../server/index.js';
import type { CurrentEditionData, EditionSummary } from '../shared/edition-contract.js';
import { chosenEditionId, currentEditionId, editionById } from './current-edition.js';

/** Every edition, newest year first. */
async function allEditions(db: Kysely<any>): Promise<EditionSummary[]> {
  const rows = await db.selectFrom('editions').select(['id', 'name', 'year', 'status']).orderBy('year', 'desc').orderBy('id', 'desc').execute();
  return rows.map((row) => ({ id: Number(row.id), name: String(row.name), year: Number(row.year), status: String(row.status) }));
}

/** The caller's current edition, whether they chose it, and every edition (the header's switcher). */
export async function currentEditionOf(db: Kysely<any>, userId: number): Promise<CurrentEditionData> {
  const [chosen, current, editions] = await Promise.all([chosenEditionId(db, userId), currentEditionId(db, userId), allEditions(db)]);
  return { current: editions.find((edition) => edition.id === current) ?? null, chosen: chosen !== null, editions };
}

/**
 * Makes `editionId` the caller's current edition (an archived one too: it opens read-only), kept on
 * the server for every device, audited in the same transaction.
 *
 * @throws AppError 422 when the edition does not exist.
 */
export async function chooseEdition(db: Kysely<any>, input: { userId: number; editionId: number; ip: string | null }): Promise<CurrentEditionData> {
  await db.transaction().execute(async (trx) => {
    const edition = await editionById(trx, input.editionId);
    if (!edition) {
      throw validationFailed(
        [{ path: 'edition_id', keyword: 'exists', messageKey: 'entities.edition.errors.unknown', params: {} }],
        'There is no such edition.',
      );
    }
    const before = await chosenEditionId(trx, input.userId);
    await sql`insert into user_editions (user_id, edition_id, updated_at) values (${input.userId}, ${edition.id}, now())
      on conflict (user_id) do update set edition_id = excluded.edition_id, updated_at = excluded.updated_at`.execute(trx);
    await writeAudit(trx, {
      action: 'edition.choose',
      userId: input.userId,
      entity: 'edition',
      entityId: edition.id,
      ip: input.ip,
      details: { previous_edition_id: before, edition_id: edition.id },
    });
  });
  return currentEditionOf(db, input.userId);
}
