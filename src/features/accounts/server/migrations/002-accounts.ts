import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Shipped as one of the server's own migrations and carried by the accounts feature under the same
 * name, so a database that ran it does not run it again: its SQL is never edited. The sign-in's
 * invitation and two-factor columns come from it too.
 *
 * Accounts: roles limited to admin and juror (a feature declaring another role replaces
 * `users_role_known` in a migration of its own); a juror's link to their jury record
 * (`jury_id`, checked on write: the juries table is an entity table, created after migrations);
 * invitations (an invited account has no password until it sets one through its link, a
 * `password_resets` row of purpose `invite`); TOTP two-factor (the secret encrypted, the last
 * accepted time step so a code works once) and its single-use recovery codes, hashed.
 */
export const accounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('jury_id', 'integer')
      .addColumn('invited_at', 'timestamptz')
      .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('totp_secret', 'text')
      .addColumn('totp_enabled_at', 'timestamptz')
      .addColumn('totp_last_step', 'bigint')
      .execute();
    await sql`alter table users alter column password_hash drop not null`.execute(db);
    await sql`alter table users add constraint users_role_known check (role in ('admin', 'juror'))`.execute(db);
    await sql`alter table users add constraint users_jury_only_juror check (jury_id is null or role = 'juror')`.execute(db);
    await db.schema.createIndex('users_jury_id_idx').on('users').column('jury_id').execute();

    await db.schema
      .alterTable('password_resets')
      .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('reset').check(sql`purpose in ('reset', 'invite')`))
      .execute();

    await db.schema
      .createTable('recovery_codes')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('recovery_codes_user_id_idx').on('recovery_codes').column('user_id').execute();
    await db.schema.createIndex('sessions_user_created_idx').on('sessions').columns(['user_id', 'created_at']).execute();
  },
};
