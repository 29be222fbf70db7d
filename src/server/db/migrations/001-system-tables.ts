import { type Kysely, type Migration, sql } from 'kysely';

/** Users, sessions, password resets, throttles, the audit log and settings. */
export const systemTables: Migration = {
  async up(db: Kysely<any>) {
    await sql`create extension if not exists pg_trgm`.execute(db);

    await db.schema
      .createTable('users')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
      .addColumn('avatar_url', 'text')
      .addColumn('preferences', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"theme":"light","language":"en","notifications":true}'::jsonb`))
      .addColumn('last_login_at', 'timestamptz')
      .addColumn('previous_login_at', 'timestamptz')
      .addColumn('disabled_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint('users_email_lower', sql`email = lower(email)`)
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('refresh_generation', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('refreshed_at', 'timestamptz', (c) => c.notNull())
      .addColumn('idle_expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('absolute_expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('revoked_at', 'timestamptz')
      .addColumn('revoked_reason', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('password_resets')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('password_resets_user_id_idx').on('password_resets').column('user_id').execute();

    await db.schema
      .createTable('throttles')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('entity', 'text')
      .addColumn('entity_id', 'text')
      .addColumn('details', 'jsonb')
      .addColumn('ip', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('audit_log_created_at_idx').on('audit_log').column('created_at').execute();
    await db.schema.createIndex('audit_log_user_id_idx').on('audit_log').column('user_id').execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
