import { type Kysely, type Migration, sql } from 'kysely';
import { chainAllRows } from '../../history/audit-chain.js';

/**
 * History: the audit log's field changes and hash chain, the chain head whose row lock
 * serialises appends across servers, and the trash of deleted records. Rows written before this
 * migration are chained in id order, so the whole log is covered from the start.
 */
export const history: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('audit_log').addColumn('changes', 'jsonb').addColumn('prev_hash', 'text').addColumn('hash', 'text').execute();
    // The log is append-only: deleting a user must not rewrite the rows that name them.
    await sql`alter table audit_log drop constraint if exists audit_log_user_id_fkey`.execute(db);
    await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity', 'entity_id', 'id']).execute();
    await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();

    await db.schema
      .createTable('audit_chain')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('last_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_hash', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await chainAllRows(db);

    await db.schema
      .createTable('trash')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('record_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('record', 'jsonb', (c) => c.notNull())
      .addColumn('detached', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('deleted_by', 'integer')
      .addColumn('deleted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('trash_entity_record_idx').on('trash').columns(['entity', 'record_id']).execute();
    await db.schema.createIndex('trash_deleted_at_idx').on('trash').column('deleted_at').execute();
  },
};
