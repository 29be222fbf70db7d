import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Editions: each person's current edition (`user_editions`, one row per user). The editions
 * themselves are an entity table (synced after migrations), so `edition_id` is a plain id here; a
 * row pointing at a deleted edition is ignored (the newest non-archived edition is used instead).
 */
export const userEditionsTable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_editions')
      .addColumn('user_id', 'integer', (c) => c.primaryKey())
      .addColumn('edition_id', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_editions').execute();
  },
};
