import { type Kysely, type Migration, sql } from 'kysely';

/**
 * `notification_outbox`: every mail, written in the same transaction as the event that causes it
 * and sent by the outbox worker. `message_id` is fixed at insert, so a message sent again after a
 * crash carries the same Message-ID. `claimed_until` / `claimed_by` are a sending server's claim;
 * `queued_at` starts the retry window (a manual retry starts a new one). `user_id` and `read_at`
 * serve the in-app bell. `link` is a secret (an invitation or reset link), shown to admins only.
 */
export const migration018NotificationsOutbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notification_outbox')
      .ifNotExists()
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('vars', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('link', 'text')
      .addColumn('message_id', 'text', (c) => c.notNull().unique())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'sending', 'sent', 'failed', 'cancelled')`))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('claimed_until', 'timestamptz')
      .addColumn('claimed_by', 'text')
      .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('sent_at', 'timestamptz')
      .addColumn('read_at', 'timestamptz')
      .execute();
    // The worker's claim: only the rows still to send.
    await sql`create index if not exists notification_outbox_due_idx on notification_outbox (next_attempt_at, id) where status in ('queued', 'sending')`.execute(
      db,
    );
    await sql`create index if not exists notification_outbox_created_idx on notification_outbox (created_at desc, id desc)`.execute(db);
    await sql`create index if not exists notification_outbox_user_idx on notification_outbox (user_id, created_at desc) where user_id is not null`.execute(db);
  },
};
