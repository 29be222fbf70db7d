import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Entrants: the `entrant` role joins the known roles (`users_role_known` replaced, as the accounts
 * migration asks of a feature declaring a role), and an entrant's account stands for one
 * submittor record through `users.customer_id` (checked on write and kept by the account sync: the
 * customers table is an entity table, created after migrations, so no foreign key). One account
 * per submittor.
 */
export const entrantsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('customer_id', 'integer').execute();
    await sql`alter table users drop constraint if exists users_role_known`.execute(db);
    await sql`alter table users add constraint users_role_known check (role in ('admin', 'juror', 'entrant'))`.execute(db);
    await sql`alter table users add constraint users_customer_only_entrant check (customer_id is null or role = 'entrant')`.execute(db);
    await db.schema.createIndex('users_customer_id_key').on('users').column('customer_id').unique().execute();
  },
};
