import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Results: the entries shortlisted into an exam (`exam_entries`), the admin's award
 * overrides (`award_overrides`) and the finalised exams with their locked results (`exam_locks`).
 * Exams and contests are entity tables (synced after migrations), so these hold plain ids.
 */
export const resultsTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('exam_entries')
      .addColumn('exam_id', 'integer', (c) => c.notNull())
      .addColumn('contest_id', 'integer', (c) => c.notNull())
      .addColumn('source_exam_id', 'integer')
      .addColumn('added_by', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('exam_entries_pk', ['exam_id', 'contest_id'])
      .execute();
    await db.schema.createIndex('exam_entries_source').on('exam_entries').column('source_exam_id').execute();

    await db.schema
      .createTable('award_overrides')
      .addColumn('exam_id', 'integer', (c) => c.notNull())
      .addColumn('contest_id', 'integer', (c) => c.notNull())
      .addColumn('award_category_id', 'integer')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('award_overrides_pk', ['exam_id', 'contest_id'])
      .execute();

    await db.schema
      .createTable('exam_locks')
      .addColumn('exam_id', 'integer', (c) => c.primaryKey())
      .addColumn('results', 'jsonb', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('exam_locks').execute();
    await db.schema.dropTable('award_overrides').execute();
    await db.schema.dropTable('exam_entries').execute();
  },
};
