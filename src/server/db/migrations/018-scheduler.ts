import { type Kysely, type Migration, sql } from 'kysely';

/**
 * `scheduler_jobs`: one row per scheduled job (exams opening and closing, deadline reminders...):
 * which server holds its current run until when, when it last started and finished. A server runs
 * a job only when one statement claims it (due: `last_run_at` older than its interval; free:
 * `lease_until` passed), so with several servers on one database each run happens once, and a job
 * due while every server was down runs at the first tick after a start.
 */
export const scheduler: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('scheduler_jobs')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'timestamptz', (c) => c.notNull())
      .addColumn('last_run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_finished_at', 'timestamptz')
      .addColumn('last_error', 'text')
      .execute();
  },
};
