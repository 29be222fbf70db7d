import { type Kysely, type Migration, sql } from 'kysely';

/**
 * `judging_leases`: one row per scheduled job of judging (`exam-status`: exams open and close by
 * themselves), naming which server holds it until when. A server runs a tick only when it takes the
 * lease (`lease_until` passed), so with several servers on one database each tick runs once.
 */
export const migration017JudgingSchedulerLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('judging_leases')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'timestamptz', (c) => c.notNull())
      .addColumn('last_run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
