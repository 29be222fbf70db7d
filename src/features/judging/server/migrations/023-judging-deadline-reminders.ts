import { type Kysely, type Migration, sql } from 'kysely';

/**
 * `judging_deadline_reminders`: one row per deadline reminder written (exam × juror × threshold in
 * hours before `closes_at`). Its primary key makes each reminder go once, whichever server runs the
 * job and however often it restarts: a reminder is mailed only in the transaction that inserts its row.
 */
export const migration023JudgingDeadlineReminders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('judging_deadline_reminders')
      .ifNotExists()
      .addColumn('exam_id', 'integer', (c) => c.notNull())
      .addColumn('jury_id', 'integer', (c) => c.notNull())
      .addColumn('hours', 'integer', (c) => c.notNull())
      .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('judging_deadline_reminders_pkey', ['exam_id', 'jury_id', 'hours'])
      .execute();
  },
};
