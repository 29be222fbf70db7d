import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Judging: an existing `exams.criteria` of free text becomes the structured list the
 * schema now describes (the old text kept as one criterion's label), so the entity sync finds the
 * type it expects. (`users.jury_id` comes from 002-accounts.)
 */
export const migration004Judging: Migration = {
  async up(db: Kysely<unknown>) {
    const { rows } = await sql<{ data_type: string }>`
      select data_type from information_schema.columns
      where table_schema = current_schema() and table_name = 'exams' and column_name = 'criteria'`.execute(db);
    if (rows[0] && rows[0].data_type !== 'jsonb') {
      await sql`alter table exams alter column criteria type jsonb using (
        case when criteria is null or btrim(criteria) = '' then '[]'::jsonb
        else jsonb_build_array(jsonb_build_object('key', 'overall', 'label', left(criteria, 120), 'weight', 1, 'maximum', 100)) end)`.execute(db);
      await sql`update exams set criteria = '[]'::jsonb where criteria is null`.execute(db);
    }
  },
};
