import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { writeAudit } from '../../../server/index.js';
import { ENTRANT_ROLE, SUBMITTOR_ENTITY } from '../index.js';

const FUNCTION = 'entrants_account_sync';
const TRIGGER = 'entrants_account_sync';

/**
 * The body of the trigger that keeps each submittor's entrant account: created with the record
 * (the submittor's e-mail, name and password hash; an account of another role with that e-mail is
 * left alone), its e-mail and name following the record, its password replaced when the record's
 * is set, disabled when the record is marked inactive and enabled when marked active again (the
 * session check reads `disabled_at`, so sessions end at once), deleted with the record. A
 * password the entrant chose through the reset link stays until the console sets another.
 */
const BODY = `
declare
  display text;
begin
  if tg_op = 'DELETE' then
    delete from users where customer_id = old.id;
    return null;
  end if;
  display := coalesce(nullif(btrim(new.name), ''), lower(new.email));
  if length(display) < 2 then display := lower(new.email); end if;
  if tg_op = 'UPDATE' then
    update users u set
      email = case when exists (select 1 from users o where o.email = lower(new.email) and o.id <> u.id) then u.email else lower(new.email) end,
      name = display,
      password_hash = case when new.password_hash is not null and new.password_hash is distinct from old.password_hash then new.password_hash else u.password_hash end,
      disabled_at = case when new.is_active is distinct from old.is_active then (case when new.is_active then null else now() end) else u.disabled_at end,
      updated_at = now()
    where u.customer_id = new.id;
    if found then return null; end if;
  end if;
  if exists (select 1 from users where email = lower(new.email)) then return null; end if;
  insert into users (email, name, password_hash, role, customer_id, disabled_at)
  values (lower(new.email), display, new.password_hash, '${ENTRANT_ROLE}', new.id, case when new.is_active then null else now() end);
  return null;
end`;

/** Submittors read per backfill statement: a few milliseconds of indexed work each, far below any statement timeout. */
export const BACKFILL_BATCH = 5000;

/**
 * Installs (again, idempotently) the trigger on the submittors' table that keeps their entrant
 * accounts, then gives an account to every submittor that has none (the demo data's, the ones
 * stored before this feature), audited with how many. Runs at start-up, after the entity tables are
 * synced; a database without the submittor entity is left alone.
 *
 * The backfill is set-based and bounded: one `INSERT ... SELECT` per batch of {@link BACKFILL_BATCH}
 * submittors in id order (keyset pagination on the primary key), each its own short transaction,
 * so no statement grows with the table (1,000,000 submittors are 200 statements) and no row makes a
 * round trip. Each lookup is indexed (`users.customer_id`, `users.email`). Once the trigger is in
 * place new submittors get their account from it, so the batches only catch up on older rows.
 */
export async function syncEntrantAccounts(db: Kysely<any>, table: string, batch = BACKFILL_BATCH): Promise<number> {
  // Several servers may start at once: one installs the trigger, and one runs each batch, at a time.
  await db.transaction().execute(async (trx) => {
    await lock(trx);
    await install(trx, table);
  });
  let created = 0;
  let after = 0;
  for (;;) {
    const step = await db.transaction().execute(async (trx) => {
      await lock(trx);
      return backfillBatch(trx, table, after, batch);
    });
    created += step.created;
    if (step.last === null) break;
    after = step.last;
  }
  if (created > 0) await writeAudit(db, { action: 'entrants.accounts_created', userId: null, details: { count: created } });
  return created;
}

async function lock(db: Kysely<any>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${FUNCTION}))`.execute(db);
}

async function install(db: Kysely<any>, table: string): Promise<void> {
  const t = sql.table(table);
  await sql.raw(`create or replace function ${FUNCTION}() returns trigger language plpgsql as $$${BODY} $$`).execute(db);
  await sql`drop trigger if exists ${sql.id(TRIGGER)} on ${t}`.execute(db);
  await sql`create trigger ${sql.id(TRIGGER)} after insert or update or delete on ${t} for each row execute function ${sql.raw(FUNCTION)}()`.execute(db);
}

/**
 * One batch: the next `size` submittors after id `after`; those without an account whose e-mail no
 * account has yet get one (of several submittors sharing an e-mail, the lowest id: earlier batches
 * came first, and `distinct on` picks it within the batch). Returns the batch's last id (null once
 * past the end) and how many accounts it created.
 */
async function backfillBatch(db: Kysely<any>, table: string, after: number, size: number): Promise<{ last: number | null; created: number }> {
  const t = sql.table(table);
  const result = await sql<{ last: number | string | null; created: number | string }>`
    with batch as (
      select c.id, lower(c.email) as email, c.name, c.password_hash, c.is_active
      from ${t} c
      where c.id > ${after}
      order by c.id
      limit ${size}
    ), fresh as (
      select distinct on (b.email) b.*
      from batch b
      where b.email is not null
        and not exists (select 1 from users u where u.customer_id = b.id)
        and not exists (select 1 from users u where u.email = b.email)
      order by b.email, b.id
    ), inserted as (
      insert into users (email, name, password_hash, role, customer_id, disabled_at)
      select f.email,
        case when length(btrim(coalesce(f.name, ''))) >= 2 then btrim(f.name) else f.email end,
        f.password_hash, ${ENTRANT_ROLE}, f.id, case when f.is_active then null else now() end
      from fresh f
      returning 1
    )
    select (select max(id) from batch) as last, (select count(*) from inserted) as created`.execute(db);
  const row = result.rows[0];
  return { last: row?.last === null || row?.last === undefined ? null : Number(row.last), created: Number(row?.created ?? 0) };
}

/** Start-up step: the entrant accounts' trigger and the accounts of the submittors that have none. */
export async function entrantAccountsOnStart(app: FastifyInstance): Promise<void> {
  const table = app.entities.byName.get(SUBMITTOR_ENTITY)?.descriptor.table;
  if (!table) return;
  const db = app.auth.db as Kysely<any>;
  const created = await syncEntrantAccounts(db, table);
  if (created > 0) app.log.info({ accounts: created }, `Gave ${created} submittor(s) an entrant account (they set their password through "Forgot password?").`);
  // How a submittor without a password of their own (the demo's) gets in, with one to try.
  const example = await sql<{ email: string }>`
    select email from users where role = ${ENTRANT_ROLE} and password_hash is null and disabled_at is null order by id limit 1`.execute(db);
  if (example.rows[0]) {
    app.startupNotes.push(
      `Entrant portal: submittors sign in at /login and land on /entries. One without a password (e.g. ${example.rows[0].email}) sets it with "Forgot password?" (the link is in the outbox, or the log without SMTP_URL).`,
    );
  }
}
