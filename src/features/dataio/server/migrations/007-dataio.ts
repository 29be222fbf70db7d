import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Data in and out: import jobs (the uploaded file, the mapping, progress and the
 * report; at most one running per entity, enforced by a partial unique index so two servers
 * cannot both start one) and saved list views.
 */
export const dataioTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('import_jobs')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('uploaded'))
      .addColumn('mode', 'text', (c) => c.notNull().defaultTo('all'))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('file', 'bytea', (c) => c.notNull())
      .addColumn('mapping', 'jsonb')
      .addColumn('fixes', 'jsonb')
      .addColumn('total_rows', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('done_rows', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_rows', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_rows', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed_rows', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('report', 'jsonb')
      .addColumn('error', 'text')
      .addColumn('user_id', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('started_at', 'timestamptz')
      .addColumn('finished_at', 'timestamptz')
      .execute();
    await sql`create unique index import_jobs_one_running on import_jobs (entity) where status = 'running'`.execute(db);
    await db.schema.createIndex('import_jobs_entity_idx').on('import_jobs').columns(['entity', 'id']).execute();

    await db.schema
      .createTable('saved_views')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('columns', 'jsonb')
      .addColumn('shared', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('saved_views_entity_idx').on('saved_views').columns(['entity', 'user_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('saved_views').execute();
    await db.schema.dropTable('import_jobs').execute();
  },
};
