import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/** One field's change in an audit row: the value before and after the write (null when absent). */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

/** The changed fields of a write, by field name. */
export type AuditChanges = Record<string, FieldChange>;

/** What an audit row says, before the chain gives it an id, a time and its hashes. */
export interface AuditRowInput {
  action: string;
  userId: number | null;
  ip: string | null;
  entity: string | null;
  entityId: string | null;
  details: Record<string, unknown> | null;
  changes: AuditChanges | null;
}

/** The fields a row's hash covers, as they read back from the database. */
interface ChainedRow {
  id: number;
  prev_hash: string;
  created_at: string;
  user_id: number | null;
  action: string;
  entity: string | null;
  entity_id: string | null;
  ip: string | null;
  details: unknown;
  changes: unknown;
}

/** JSON with object keys sorted at every level: jsonb gives keys back in its own order. */
export function canonicalJson(value: unknown): string {
  const plain = value === undefined ? null : JSON.parse(JSON.stringify(value));
  const walk = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(walk).join(',')}]`;
    if (v && typeof v === 'object') {
      const entries = Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${walk((v as Record<string, unknown>)[k])}`);
      return `{${entries.join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return walk(plain);
}

/** sha256 (hex) of the previous row's hash and this row's canonical content. */
export function hashAuditRow(row: ChainedRow): string {
  const content = canonicalJson([row.id, row.created_at, row.user_id, row.action, row.entity, row.entity_id, row.ip, row.details ?? null, row.changes ?? null]);
  return createHash('sha256').update(`${row.prev_hash}\n${content}`).digest('hex');
}

const toIso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/**
 * Appends one row to the hash chain in `db`'s transaction (or a new one): the chain head's row lock
 * serialises appends across connections and servers until that transaction ends, so the log stays
 * one chain; a rolled-back write takes its audit row with it.
 */
export async function appendAudit(db: Kysely<any>, input: AuditRowInput): Promise<void> {
  const run = async (trx: Kysely<any>) => {
    // Creates the head on the first append (an empty database stays empty for a restore) and
    // takes its row lock in the same statement.
    const head = await sql<{ last_hash: string }>`insert into audit_chain (id) values (1)
      on conflict (id) do update set last_id = audit_chain.last_id returning last_hash`.execute(trx);
    const next = await sql<{ id: number | string }>`select nextval(pg_get_serial_sequence('audit_log', 'id')) as id`.execute(trx);
    const row: ChainedRow = {
      id: Number(next.rows[0]!.id),
      prev_hash: head.rows[0]!.last_hash,
      created_at: new Date().toISOString(),
      user_id: input.userId === null || input.userId === undefined ? null : Number(input.userId),
      action: input.action,
      entity: input.entity,
      entity_id: input.entityId,
      ip: input.ip,
      details: input.details ? JSON.parse(JSON.stringify(input.details)) : null,
      changes: input.changes ? JSON.parse(JSON.stringify(input.changes)) : null,
    };
    const hash = hashAuditRow(row);
    await trx
      .insertInto('audit_log')
      .values({
        ...row,
        details: row.details === null ? null : JSON.stringify(row.details),
        changes: row.changes === null ? null : JSON.stringify(row.changes),
        hash,
      })
      .execute();
    await sql`update audit_chain set last_id = ${row.id}, last_hash = ${hash} where id = 1`.execute(trx);
  };
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}

const BATCH = 1000;

async function* rowsInOrder(db: Kysely<any>): AsyncGenerator<ChainedRow & { hash: string | null }> {
  let after = 0;
  for (;;) {
    const batch = await sql<any>`select id, prev_hash, hash, created_at, user_id, action, entity, entity_id, ip, details, changes
      from audit_log where id > ${after} order by id limit ${BATCH}`.execute(db);
    for (const r of batch.rows) {
      yield { ...r, id: Number(r.id), user_id: r.user_id === null ? null : Number(r.user_id), created_at: toIso(r.created_at) };
    }
    if (batch.rows.length < BATCH) return;
    after = Number(batch.rows[batch.rows.length - 1].id);
  }
}

/** Chains rows written before the chain existed (migration 006), in id order. */
export async function chainAllRows(db: Kysely<any>): Promise<void> {
  let prev = '';
  let lastId = 0;
  for await (const row of rowsInOrder(db)) {
    const hash = hashAuditRow({ ...row, prev_hash: prev });
    await sql`update audit_log set prev_hash = ${prev}, hash = ${hash} where id = ${row.id}`.execute(db);
    prev = hash;
    lastId = row.id;
  }
  if (lastId > 0) await sql`insert into audit_chain (id, last_id, last_hash) values (1, ${lastId}, ${prev})`.execute(db);
}

/** The outcome of {@link verifyAuditChain}. */
export interface ChainReport {
  ok: boolean;
  rows: number;
  /** The first row that does not fit the chain, and why. */
  broken?: { id: number; reason: string };
}

/**
 * Walks the audit log in id order and recomputes every hash: a row whose content was edited, whose
 * predecessor was removed or changed, or a chain head that does not name the last row, breaks it.
 */
export async function verifyAuditChain(db: Kysely<any>): Promise<ChainReport> {
  let prev = '';
  let prevId = 0;
  let rows = 0;
  for await (const row of rowsInOrder(db)) {
    if (row.prev_hash !== prev) {
      const before = prevId ? `row ${prevId}` : 'the start of the log';
      return {
        ok: false,
        rows,
        broken: { id: row.id, reason: `its previous-row hash does not match ${before} (a row between them was removed, or one of them was changed)` },
      };
    }
    if (hashAuditRow(row) !== row.hash) {
      return { ok: false, rows, broken: { id: row.id, reason: 'its content does not match its hash (the row was edited)' } };
    }
    prev = row.hash;
    prevId = row.id;
    rows++;
  }
  const head = await sql<{ last_id: number | string; last_hash: string }>`select last_id, last_hash from audit_chain where id = 1`.execute(db);
  const last = head.rows[0];
  if ((last || prevId > 0) && (!last || Number(last.last_id) !== prevId || last.last_hash !== prev)) {
    if (!last) return { ok: false, rows, broken: { id: prevId, reason: 'the chain head (table audit_chain) is missing' } };
    const id = Number(last.last_id);
    return {
      ok: false,
      rows,
      broken: { id, reason: `the chain head names row ${id} but the log ends at row ${prevId} (rows at the end were removed or changed)` },
    };
  }
  return { ok: true, rows };
}
