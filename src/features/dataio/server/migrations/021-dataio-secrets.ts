import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Import jobs keep no secret (issue 29, finding 1). From now on an upload is stored as its parsed
 * table with write-only cells sealed (hashed: see import-secrets.ts), in the new `secret_columns`
 * the sealed columns. The rows stored before hold the raw upload, passwords included, and their
 * reports the failed rows' cells; this cannot tell which cells were secret (the entities are not
 * known to a migration), so it drops them all:
 * - every job that is not running loses its stored file (an upload not yet imported has to be
 *   uploaded again; a running job keeps its file until it ends, when the job empties it);
 * - every report keeps its row numbers and errors but no cell values;
 * - the stored preview fixes (typed corrections, passwords among them) are cleared.
 */
export const dataioSecrets: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('import_jobs').addColumn('secret_columns', 'jsonb').execute();
    await sql`delete from import_jobs where status = 'uploaded'`.execute(db);
    await sql`update import_jobs set file = ''::bytea, fixes = null where status <> 'running'`.execute(db);
    await sql`
      update import_jobs
      set report = jsonb_set(report, '{rows}', coalesce(
        (select jsonb_agg(jsonb_set(r, '{values}', '[]'::jsonb)) from jsonb_array_elements(report -> 'rows') as r),
        '[]'::jsonb))
      where report is not null and jsonb_typeof(report -> 'rows') = 'array'`.execute(db);
    await db.schema.createIndex('import_jobs_created_idx').on('import_jobs').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('import_jobs_created_idx').execute();
    await db.schema.alterTable('import_jobs').dropColumn('secret_columns').execute();
  },
};
