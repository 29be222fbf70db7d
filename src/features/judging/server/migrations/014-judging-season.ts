import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Judging's season tables (exams, contests and jurors are entity tables, synced after migrations, so
 * these hold plain ids):
 * - `exam_panels`: the jurors on an exam's panel (none yet: the exam's round's active jurors);
 * - `jury_conflicts`: conflicts of interest a juror declared or an admin entered, juror × company,
 *   entry or brand (`name_key` is the company key of a company's or brand's name);
 * - `entry_codes`: each entry's blind code in an exam, unique in it.
 */
export const migration014JudgingSeason: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('exam_panels')
      .addColumn('exam_id', 'integer', (c) => c.notNull())
      .addColumn('jury_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('exam_panels_pk', ['exam_id', 'jury_id'])
      .execute();
    await db.schema.createIndex('exam_panels_jury').on('exam_panels').column('jury_id').execute();

    await db.schema
      .createTable('jury_conflicts')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('jury_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('company', 'entry', 'brand')`))
      .addColumn('contest_id', 'integer')
      .addColumn('name', 'text')
      .addColumn('name_key', 'text')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('declared_by', 'text', (c) => c.notNull().check(sql`declared_by in ('admin', 'juror')`))
      .addColumn('user_id', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('jury_conflicts_jury').on('jury_conflicts').column('jury_id').execute();

    await db.schema
      .createTable('entry_codes')
      .addColumn('exam_id', 'integer', (c) => c.notNull())
      .addColumn('contest_id', 'integer', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('entry_codes_pk', ['exam_id', 'contest_id'])
      .addUniqueConstraint('entry_codes_code', ['exam_id', 'code'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('entry_codes').execute();
    await db.schema.dropTable('jury_conflicts').execute();
    await db.schema.dropTable('exam_panels').execute();
  },
};
