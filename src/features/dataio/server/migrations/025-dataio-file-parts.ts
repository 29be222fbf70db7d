import { type Kysely, type Migration, sql } from 'kysely';

/**
 * An import job's stored table in parts of about 256 KB (`import_job_parts`), one row each, instead of
 * one `import_jobs.file` value: a 45 MB upload's table (over 20 MB compressed) was sent to the
 * database as one parameter and read back as one value, each a copy that held every other request
 * for a tenth of a second or more, and PGlite held the whole statement in memory several times over
 * (issue 29, item 3). The parts go with their job (`on delete cascade`), like the file did; the
 * backups leave them out (SECRET_TABLES). A running or uploaded job's file moves into one part, in
 * SQL, and the old column is emptied (it stays, always empty, for the rows a down migration brings back).
 */
export const dataioFileParts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('import_job_parts')
      .addColumn('job_id', 'integer', (c) => c.notNull().references('import_jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', 'bytea', (c) => c.notNull())
      .addPrimaryKeyConstraint('import_job_parts_pkey', ['job_id', 'seq'])
      .execute();
    await sql`insert into import_job_parts (job_id, seq, data) select id, 0, file from import_jobs where octet_length(file) > 0`.execute(db);
    await sql`update import_jobs set file = ''::bytea where octet_length(file) > 0`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`update import_jobs j set file = (select string_agg(p.data, ''::bytea order by p.seq) from import_job_parts p where p.job_id = j.id)
      where exists (select 1 from import_job_parts p where p.job_id = j.id)`.execute(db);
    await db.schema.dropTable('import_job_parts').execute();
  },
};
