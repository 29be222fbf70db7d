import { type Kysely, sql } from 'kysely';
import { type EntityRegistry, type SystemTables, validationFailed } from '../../../server/index.js';
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
