import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Import jobs keep their live state in the table, so that any server of several sharing one
 * PostgreSQL answers a job's progress and can cancel it: the phase and when it began, a heartbeat
 * the running server renews (`progress_at`; a running job whose heartbeat has stopped was on a
 * server that died), and a cancel request the running server polls.
 */
export const dataioJobState: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('import_jobs')
      .addColumn('phase', 'text')
      .addColumn('phase_started_at', 'timestamptz')
      .addColumn('progress_at', 'timestamptz')
      .addColumn('cancel_requested', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
    await sql`update import_jobs set progress_at = coalesce(finished_at, started_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('import_jobs')
      .dropColumn('phase')
      .dropColumn('phase_started_at')
      .dropColumn('progress_at')
      .dropColumn('cancel_requested')
      .execute();
  },
};
