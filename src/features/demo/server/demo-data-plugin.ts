import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { EntityRegistry, SystemTables } from '../../../server/index.js';
import { demoImage } from '../../media/server.js';
import { finaliseExam } from '../../results/server.js';
import { buildDemoData, type DemoDataSet, type DemoImage } from './demo-data.js';
import { insertRecords } from './insert-records.js';

/** The settings key recording that the first start has dealt with demo data (created or declined). */
export const DEMO_DATA_SETTING = 'demo_data';
const LOCK_KEY = 7_301_947_222;

/**
 * Creates the demo data set when the database has never had it and every entity table is empty.
 * Runs in one transaction under an advisory lock (two servers starting together create it once)
 * and records the outcome in `settings`, so emptying the tables later never brings it back.
 * Returns the start-up note, or undefined when nothing was done.
 */
export async function createDemoDataOnFirstStart(
  db: Kysely<SystemTables>,
  registry: EntityRegistry,
  now = new Date(),
  storeImage?: StoreDemoImage,
): Promise<string | undefined> {
  let previous: { edition: number; exams: number[] } | undefined;
  const note = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    const done = await trx.selectFrom('settings').select('value').where('key', '=', DEMO_DATA_SETTING).executeTakeFirst();
    if (done) return undefined;
    const set = buildDemoData(now);
    const tables = set.order.map((name) => registry.byName.get(name)?.descriptor.table).filter((t): t is string => !!t);
    for (const table of tables) {
      const row = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(trx);
      if (row.rows.length > 0) {
        await trx
          .insertInto('settings')
          .values({ key: DEMO_DATA_SETTING, value: `skipped: ${table} had rows` })
          .execute();
        return undefined;
      }
    }
    const report = await insertRecords(trx, registry, set);
    previous = await shortlistPreviousEdition(trx, report.ids, set.previousEdition);
    if (storeImage) await storeImages(trx, registry, report.ids.contest ?? [], set.images, storeImage);
    // '10 companies, 6 categories': the plural is the entity's endpoint, as in the API's in-use message.
    const counts = Object.entries(report.ids).map(([name, ids]) => {
      const plural = registry.byName.get(name)?.descriptor.endpoint.replace(/[-_]/g, ' ') ?? name;
      return `${ids.length} ${ids.length === 1 ? name : plural}`;
    });
    await trx
      .insertInto('settings')
      .values({ key: DEMO_DATA_SETTING, value: `created ${now.toISOString()}: ${counts.join(', ')}` })
      .execute();
    const skipped = report.skipped.length ? ` (not created: ${report.skipped.join(', ')})` : '';
    return `Demo data created: ${counts.join(', ')}${skipped}. Set DEMO_DATA=false to start empty.`;
  });
  if (previous) await finishPreviousEdition(db, registry, previous);
  return note;
}

/** Stores one generated picture of an entry (as media) and returns the value its field keeps. */
export type StoreDemoImage = (trx: Kysely<any>, bytes: Buffer, contestId: number, name: string) => Promise<string>;

/** The entries' pictures: generated, stored through `storeImage`, and named in their fields. */
async function storeImages(trx: Kysely<any>, registry: EntityRegistry, contestIds: number[], images: DemoImage[], storeImage: StoreDemoImage) {
  const table = registry.byName.get('contest')?.descriptor.table;
  if (!table) return;
  for (const image of images) {
    const contestId = contestIds[image.contest];
    if (contestId === undefined) continue;
    const value = await storeImage(trx, await demoImage(image.kind, image.seed), contestId, `${image.kind}-${image.seed}.png`);
    await trx
      .updateTable(table)
      .set({ [image.field]: value })
      .where('id', '=', contestId)
      .execute();
  }
}

/**
 * The previous edition's Round 2 takes the entries shortlisted from its Round 1 (results'
 * `exam_entries`, as the shortlist action writes them). Returns what {@link finishPreviousEdition}
 * finalises, or undefined when the set's editions or exams were not created.
 */
async function shortlistPreviousEdition(trx: Kysely<any>, ids: Record<string, number[]>, plan: DemoDataSet['previousEdition']) {
  const edition = ids.edition?.[plan.edition];
  const [round1, round2] = [ids.exam?.[plan.round1], ids.exam?.[plan.round2]];
  if (edition === undefined || round1 === undefined || round2 === undefined) return undefined;
  const rows = plan.shortlist.map((index) => ({ exam_id: round2, contest_id: ids.contest![index]!, source_exam_id: round1 }));
  await trx.insertInto('exam_entries').values(rows).execute();
  return { edition, exams: [round1, round2] };
}

/**
 * Finalises the previous edition's exams through the results feature (their results are locked as
 * the results screen shows them), then archives the edition (read-only from then on).
 */
async function finishPreviousEdition(db: Kysely<any>, registry: EntityRegistry, previous: { edition: number; exams: number[] }) {
  for (const examId of previous.exams) await finaliseExam(db, registry, examId, { userId: null, ip: null });
  const editions = registry.byName.get('edition')!.descriptor.table;
  await db.updateTable(editions).set({ status: 'archived', updated_at: new Date() }).where('id', '=', previous.edition).execute();
}

/**
 * On the first start of an empty database (and `DEMO_DATA` not false), fills it with the demo
 * data set whose dashboard shows the spec's sample figures. Registered after the entity tables
 * are synced.
 */
export const demoDataPlugin = fp(async function demoDataPlugin(app: FastifyInstance) {
  if (!app.config.demoData) return;
  const media = app.media;
  const note = await createDemoDataOnFirstStart(app.db, app.entities, new Date(), async (trx, bytes, contestId, name) => {
    const row = await media.storeGenerated(bytes, contestId, name, trx);
    return `/api/media/${row.id}`;
  });
  if (note) {
    app.startupNotes.push(note);
    app.log.info(note);
  }
});
