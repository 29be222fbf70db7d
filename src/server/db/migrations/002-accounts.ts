import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Accounts (DESIGN §10): roles limited to admin and juror, a juror's link to their jury record
 * (`jury_id`, checked on write: the juries table is an entity table, created after migrations).
 */
export const accounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('jury_id', 'integer')
      .execute();
    await sql`alter table users add constraint users_role_known check (role in ('admin', 'juror'))`.execute(db);
    await sql`alter table users add constraint users_jury_only_juror check (jury_id is null or role = 'juror')`.execute(db);
    await db.schema.createIndex('users_jury_id_idx').on('users').column('jury_id').execute();
  },
};
