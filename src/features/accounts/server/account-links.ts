import { type Kysely, sql } from 'kysely';
import { conflict, type EntityRegistry, type SystemTables, validationFailed, writeAudit } from '../../../server/index.js';
import { MAX_RECORD_ID } from '../../../shared/record-id.js';
import { type Role, roleLinks } from '../../../shared/roles.js';

type Db = Kysely<SystemTables>;

/** A link's value in a request body: a record id, or null for none. */
const LINK_SCHEMA = { type: ['integer', 'null'], minimum: 1, maximum: MAX_RECORD_ID } as const;

/** The body properties of the declared role links (`{ jury_id: id | null }`), for the accounts routes' schemas. */
export function linkBodyProperties(): Record<string, typeof LINK_SCHEMA> {
  return Object.fromEntries(roleLinks().map((link) => [link.column, LINK_SCHEMA]));
}

/** The message keys of a malformed link value, by body field. */
export function linkBodyMessages(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    roleLinks().map((link) => [link.column, { type: link.messages.invalid, minimum: link.messages.invalid, maximum: link.messages.invalid }]),
  );
}

/** The link values a body gives, by column; a link it does not name is left out. */
export function linksIn(body: object): Record<string, number | null> {
  const values = body as Record<string, unknown>;
  return Object.fromEntries(roleLinks().flatMap((link) => (values[link.column] === undefined ? [] : [[link.column, values[link.column] as number | null]])));
}

/**
 * Whether the record an account links to exists. Entity tables are synced after the migrations, so
 * the link is checked on write rather than by a foreign key. False when the entity is not loaded.
 */
export async function linkedRecordExists(db: Db, registry: EntityRegistry, entity: string, id: number): Promise<boolean> {
  const table = registry.byName.get(entity)?.descriptor.table;
  if (!table) return false;
  const row = await sql<{ found: number }>`select 1 as found from ${sql.table(table)} where id = ${id}`.execute(db);
  return row.rows.length > 0;
}

/**
 * The links of an account of `role` after a change, by column, for every declared link (the
 * juror's jury record, `jury_id`): a value is refused on a link its role does not declare (422
 * `notThisRole`) and when its record does not exist (422 `unknown`). A link `given` leaves out keeps
 * its `current` value while the role still declares it, and is emptied otherwise (a role change).
 * Inside a transaction pass it as `db`: on PGlite (one connection) a query on the pool would wait
 * for the transaction that waits for it.
 */
export async function checkLinks(
  db: Db,
  registry: EntityRegistry,
  role: Role,
  given: Readonly<Record<string, number | null>>,
  current: Readonly<Record<string, number | null>> = {},
): Promise<Record<string, number | null>> {
  const links: Record<string, number | null> = {};
  for (const link of roleLinks()) {
    const value = given[link.column];
    if (value === undefined) {
      links[link.column] = link.role === role ? (current[link.column] ?? null) : null;
      continue;
    }
    if (value !== null && link.role !== role) {
      throw validationFailed([{ path: link.column, keyword: 'role', messageKey: link.messages.notThisRole, params: { role } }]);
    }
    if (value !== null && !(await linkedRecordExists(db, registry, link.entity, value))) {
      throw validationFailed([{ path: link.column, keyword: 'exists', messageKey: link.messages.unknown, params: { value } }]);
    }
    links[link.column] = value;
  }
  return links;
}

/** The id of the record of `entity` with this e-mail (compared without case), if the entity has e-mails and one matches. */
export async function recordIdByEmail(db: Db, registry: EntityRegistry, entity: string, email: string): Promise<number | undefined> {
  const loaded = registry.byName.get(entity);
  if (!loaded?.schema.properties?.email) return undefined;
  const row = await sql<{
    id: number;
  }>`select id from ${sql.table(loaded.descriptor.table)} where lower(email) = ${email.trim().toLowerCase()} order by id limit 1`.execute(db);
  return row.rows[0]?.id;
}

/**
 * Fills the links an account of `role` must have from its e-mail: a declared link the body leaves
 * empty (and the account does not hold already) is set to the record with the same e-mail
 * (compared without case). When none matches, the account cannot be made: 422 `linkRequired` on the
 * link's field, so the screen asks which record. Every juror account is linked to a juror.
 */
export async function linksByEmail(
  db: Db,
  registry: EntityRegistry,
  role: Role,
  given: Readonly<Record<string, number | null>>,
  email: string,
  current: Readonly<Record<string, number | null>> = {},
): Promise<Record<string, number | null>> {
  const links = { ...given };
  for (const link of roleLinks()) {
    if (link.role !== role || (given[link.column] ?? null) !== null) continue;
    if (given[link.column] === undefined && (current[link.column] ?? null) !== null) continue;
    const found = await recordIdByEmail(db, registry, link.entity, email);
    if (found === undefined) {
      throw validationFailed([{ path: link.column, keyword: 'required', messageKey: 'accounts.errors.linkRequired', params: { email } }]);
    }
    links[link.column] = found;
  }
  return links;
}

/** 409 when another account already stands for one of these records (one account per record). */
export async function assertLinksFree(db: Db, links: Readonly<Record<string, number | null>>, exceptUserId?: number): Promise<void> {
  for (const [column, value] of Object.entries(links)) {
    if (value === null) continue;
    const other = await sql<{ email: string }>`select email from users where ${sql.ref(column)} = ${value} and id <> ${exceptUserId ?? 0} limit 1`.execute(db);
    if (other.rows[0]) {
      throw conflict('Another account is already linked to this record.', [
        { path: column, keyword: 'linked', messageKey: 'accounts.errors.alreadyLinked', params: { email: other.rows[0].email } },
      ]);
    }
  }
}

/**
 * Links every account of a linked role that has no link yet to the record with its e-mail (an
 * account invited before accounts were always linked), unless another account stands for that
 * record. Idempotent; run at start-up once the entity tables are synced. Answers the linked
 * accounts' ids.
 */
export async function linkAccountsByEmail(db: Db, registry: EntityRegistry): Promise<number[]> {
  const linked: number[] = [];
  for (const link of roleLinks()) {
    const loaded = registry.byName.get(link.entity);
    if (!loaded?.schema.properties?.email) continue;
    const column = sql.ref(link.column);
    const rows = await sql<{ id: number; record: number }>`
      update users u set ${column} = r.id, updated_at = now()
      from ${sql.table(loaded.descriptor.table)} r
      where u.role = ${link.role} and u.${column} is null and lower(r.email) = lower(u.email)
        and not exists (select 1 from users o where o.${column} = r.id)
      returning u.id, r.id as record`.execute(db);
    for (const row of rows.rows) {
      await writeAudit(db, { action: 'accounts.linked_by_email', userId: null, details: { accountId: row.id, [link.column]: row.record } });
      linked.push(row.id);
    }
  }
  return linked;
}
