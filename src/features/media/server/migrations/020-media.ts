import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Media: one row per stored file (an image or a PDF). `contest_id` is null until the file is tied to
 * an entry (its jurors may then see it); `owner_user_id` is the account that uploaded it. The bytes
 * live in the media store (`storage_key`, and `thumbnail_key` for an image's thumbnail), never here.
 */
export const migration020Media: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('media')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('owner_user_id', 'integer')
      .addColumn('contest_id', 'integer')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('thumbnail_key', 'text')
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('original_name', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('media_contest').on('media').column('contest_id').execute();
    await db.schema.createIndex('media_owner').on('media').column('owner_user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('media').execute();
  },
};
