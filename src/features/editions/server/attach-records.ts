import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { EntityRegistry } from '../../../server/index.js';
import { defaultEditionId } from './current-edition.js';
import { EDITION_FIELD } from './edition-policies.js';

const LOCK_KEY = 7_301_947_226;

/**
 * The edition records without one are attached to: the newest not archived, else a new one named
 * after this year (or the year after the newest, when this year's is taken), open.
 */
async function editionForUnattached(db: Kysely<any>, now: Date): Promise<number> {
  const existing = await defaultEditionId(db);
  if (existing !== null) return existing;
  const newest = await db.selectFrom('editions').select(sql<number>`max(year)`.as('year')).executeTakeFirst();
  const year = Math.max(now.getUTCFullYear(), Number(newest?.year ?? 0) + 1);
  const row = await db
    .insertInto('editions')
    .values({ name: String(year), year, status: 'open' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Attaches every record without an edition (exams and contests of a database from before
 * editions) to the current edition, creating one when needed, so an upgraded database keeps every
 * record in its lists. One transaction under an advisory lock (servers starting together agree);
 * returns how many records were attached per table.
 */
export async function attachUnassignedRecords(db: Kysely<any>, registry: EntityRegistry, now = new Date()): Promise<Record<string, number>> {
  const tables = registry.entities.filter((entity) => Object.hasOwn(entity.schema.properties ?? {}, EDITION_FIELD)).map((entity) => entity.descriptor.table);
  if (!registry.byName.has('edition') || tables.length === 0) return {};
  const pending = await Promise.all(
    tables.map(async (table) => (await sql`select 1 from ${sql.table(table)} where ${sql.ref(EDITION_FIELD)} is null limit 1`.execute(db)).rows.length > 0),
  );
  if (!pending.some(Boolean)) return {};
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    const editionId = await editionForUnattached(trx, now);
    const attached: Record<string, number> = {};
    for (const table of tables) {
      const result = await trx
        .updateTable(table)
        .set({ [EDITION_FIELD]: editionId })
        .where(EDITION_FIELD, 'is', null)
        .executeTakeFirst();
      const n = Number(result.numUpdatedRows);
      if (n > 0) attached[table] = n;
    }
    return attached;
  });
}

/** On start (after the entity tables are synced): {@link attachUnassignedRecords}, noted when it did anything. */
export const attachRecordsPlugin = fp(async function attachRecordsPlugin(app: FastifyInstance) {
  const attached = await attachUnassignedRecords(app.db, app.entities);
  const parts = Object.entries(attached).map(([table, n]) => `${n} ${table}`);
  if (parts.length > 0) {
    const note = `Editions: ${parts.join(', ')} without an edition attached to the current edition.`;
    app.startupNotes.push(note);
    app.log.info(note);
  }
});
