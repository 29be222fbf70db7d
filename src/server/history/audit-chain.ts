import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { AppConfig } from '../config.js';
import { deriveKey, loadDataKey } from '../data-key.js';

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

/**
 * The hash of a row over the previous row's hash and this row's canonical content: HMAC-SHA256 with
 * the audit key (hex) when `key` is given — what every row has once the chain is keyed — else the
 * plain SHA-256 of chains written before the key (anyone can recompute that one, so it only shows
 * careless edits).
 */
export function hashAuditRow(row: ChainedRow, key?: Buffer): string {
  const content = canonicalJson([row.id, row.created_at, row.user_id, row.action, row.entity, row.entity_id, row.ip, row.details ?? null, row.changes ?? null]);
  const text = `${row.prev_hash}\n${content}`;
  return key ? createHmac('sha256', key).update(text).digest('hex') : createHash('sha256').update(text).digest('hex');
}

const sameHex = (a: string | null, b: string) => a !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The audit key of each open database, by the Kysely executor's adapter (shared by a database's
 * transactions). The key is derived from the server's data key (`src/server/data-key.ts`) and lives
 * in memory only: never in the database, the log or a backup.
 */
const auditKeys = new WeakMap<object, Buffer>();
const anchorOf = (db: Kysely<any>): object => db.getExecutor().adapter;

/** Makes every append to `db` (and its transactions) keyed with `key`, and {@link verifyAuditChain} expect it. */
export function registerAuditKey(db: Kysely<any>, key: Buffer): void {
  auditKeys.set(anchorOf(db), key);
}

/** The audit key {@link registerAuditKey} gave `db`, if any. */
export function auditKeyOf(db: Kysely<any>): Buffer | undefined {
  return auditKeys.get(anchorOf(db));
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
    const hash = hashAuditRow(row, auditKeyOf(trx));
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
  /** Whether the hashes were checked as HMACs with the audit key (false: plain SHA-256, no key given). */
  keyed: boolean;
  /** The first row that does not fit the chain, and why. */
  broken?: { id: number; reason: string };
}

/**
 * Walks the audit log in id order and recomputes every hash: a row whose content was edited, whose
 * predecessor was removed or changed, or a chain head that does not name the last row, breaks it.
 * With the audit key (by default the one {@link registerAuditKey} gave `db`; `null` checks the plain
 * SHA-256 of a chain from before the key) every hash must be its HMAC: a table rewritten and
 * rehashed by someone without the key fails at its first row.
 */
export async function verifyAuditChain(db: Kysely<any>, key: Buffer | null = auditKeyOf(db) ?? null): Promise<ChainReport> {
  let prev = '';
  let prevId = 0;
  let rows = 0;
  const keyed = key !== null;
  for await (const row of rowsInOrder(db)) {
    if (row.prev_hash !== prev) {
      const before = prevId ? `row ${prevId}` : 'the start of the log';
      return {
        ok: false,
        rows,
        keyed,
        broken: { id: row.id, reason: `its previous-row hash does not match ${before} (a row between them was removed, or one of them was changed)` },
      };
    }
    if (!sameHex(row.hash, hashAuditRow(row, key ?? undefined))) {
      const reason =
        key && sameHex(row.hash, hashAuditRow(row))
          ? "its hash is not keyed with this server's audit key (an unkeyed hash: the row was rewritten by someone without the key, or the chain was never keyed by this key)"
          : key
            ? 'its content does not match its hash (the row was edited, or the chain was keyed with another data key)'
            : 'its content does not match its hash (the row was edited)';
      return { ok: false, rows, keyed, broken: { id: row.id, reason } };
    }
    prev = row.hash!;
    prevId = row.id;
    rows++;
  }
  const head = await sql<{ last_id: number | string; last_hash: string }>`select last_id, last_hash from audit_chain where id = 1`.execute(db);
  const last = head.rows[0];
  if ((last || prevId > 0) && (!last || Number(last.last_id) !== prevId || last.last_hash !== prev)) {
    if (!last) return { ok: false, rows, keyed, broken: { id: prevId, reason: 'the chain head (table audit_chain) is missing' } };
    const id = Number(last.last_id);
    return {
      ok: false,
      rows,
      keyed,
      broken: { id, reason: `the chain head names row ${id} but the log ends at row ${prevId} (rows at the end were removed or changed)` },
    };
  }
  return { ok: true, rows, keyed };
}

/** How {@link keyAuditChain}'s marker names a database: PostgreSQL by host, port and name (never its credentials), PGlite by its folder. */
export function databaseName(config: { databaseUrl?: string; dataDir: string }): string {
  if (!config.databaseUrl) return `pglite ${path.resolve(config.dataDir)}`;
  try {
    const url = new URL(config.databaseUrl);
    return `postgres ${url.hostname}:${url.port || '5432'}/${decodeURIComponent(url.pathname.slice(1))}`;
  } catch {
    return 'postgres';
  }
}

/** The HKDF label of the audit key (`deriveKey(dataKey, AUDIT_KEY_LABEL)`, `src/server/data-key.ts`). */
export const AUDIT_KEY_LABEL = 'audit-chain v1';

/** The file in `DATA_DIR` that says this server's key has keyed the chain of the database it runs on. */
export const AUDIT_KEYED_MARKER = 'audit-chain-keyed';

/** What {@link keyAuditChain} found and did. */
export interface KeyingOutcome {
  state: 'empty' | 'keyed' | 'rekeyed' | 'refused' | 'unkeyed-broken' | 'other-key';
  /** Rows re-anchored (state `rekeyed`). */
  rows?: number;
  /** For the log: what happened and what the operator does. */
  message: string;
}

/**
 * Makes sure the chain is keyed with `key`. Cheap when it is (the last row's HMAC is checked). A
 * chain written before the key (plain SHA-256 hashes: migration 006, or a server of an earlier
 * version) is verified whole and, only when intact, re-anchored: every hash recomputed as an HMAC in
 * one transaction, then an `audit.chain_keyed` row records how many rows were re-anchored.
 *
 * Re-anchoring happens once: `markerDir` (the data folder) then holds {@link AUDIT_KEYED_MARKER},
 * and a server that finds an unkeyed chain behind that marker refuses to bless it (someone rewrote
 * the table without the key). A restore (`allowRekey`) may re-anchor an older backup's chain.
 */
export async function keyAuditChain(
  db: Kysely<any>,
  key: Buffer,
  options: { markerDir?: string; allowRekey?: boolean; database?: string } = {},
): Promise<KeyingOutcome> {
  const marker = options.markerDir ? path.join(options.markerDir, AUDIT_KEYED_MARKER) : undefined;
  // One data folder may serve several databases in turn (a seeded bench database, the move from
  // PGlite to PostgreSQL): the marker names each database it keyed, and speaks for those only. A
  // marker naming none (an earlier version's) speaks for every database.
  const line = options.database ? `database ${options.database}` : undefined;
  const markerText = () => (marker && fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : undefined);
  const marked = () => {
    const text = markerText();
    if (text === undefined) return false;
    const names = text.split('\n').filter((entry) => entry.startsWith('database '));
    return names.length === 0 || line === undefined || names.includes(line);
  };
  const mark = () => {
    if (!marker || marked()) return;
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    const text = markerText() ?? `The audit chain of each database named below is keyed (HMAC) with this server's data key.\n`;
    fs.writeFileSync(marker, `${text}${line ?? 'database (unnamed)'}\n`, { mode: 0o600 });
  };
  const lastRow = await sql<any>`select id, prev_hash, hash, created_at, user_id, action, entity, entity_id, ip, details, changes
    from audit_log order by id desc limit 1`.execute(db);
  const last = lastRow.rows[0];
  if (!last) {
    mark();
    return { state: 'empty', message: 'The audit log is empty; every row will be keyed.' };
  }
  const row: ChainedRow & { hash: string | null } = {
    ...last,
    id: Number(last.id),
    user_id: last.user_id === null ? null : Number(last.user_id),
    created_at: toIso(last.created_at),
  };
  if (sameHex(row.hash, hashAuditRow(row, key))) {
    mark();
    return { state: 'keyed', message: "The audit chain is keyed with this server's audit key." };
  }
  if (!sameHex(row.hash, hashAuditRow(row))) {
    return {
      state: 'other-key',
      message:
        `The audit log's last row (${row.id}) is keyed with another data key, or was altered: npm run audit:verify will report it broken. ` +
        'Give this server the data key of the server that wrote the log (DATA_KEY, or its DATA_DIR/data-key).',
    };
  }
  if (marked() && !options.allowRekey) {
    return {
      state: 'refused',
      message: `The audit log ends in unkeyed rows although ${marker} says this server keyed it: the table was rewritten by someone without the key. It is not re-anchored; npm run audit:verify shows the first such row.`,
    };
  }
  const unkeyed = await verifyAuditChain(db, null);
  if (!unkeyed.ok) {
    return {
      state: 'unkeyed-broken',
      message: `The audit log (written before it was keyed) is broken at row ${unkeyed.broken!.id}: ${unkeyed.broken!.reason}. It is not re-anchored.`,
    };
  }
  const rows = await db.transaction().execute(async (trx) => {
    // The head's row lock keeps appends out while the hashes change.
    await sql`select last_id from audit_chain where id = 1 for update`.execute(trx);
    // Another server on the same PostgreSQL may have re-anchored it while this one verified.
    const now = await sql<{ hash: string | null; prev_hash: string }>`select hash from audit_log order by id desc limit 1`.execute(trx);
    if (now.rows[0]?.hash !== row.hash) return null;
    let prev = '';
    let count = 0;
    let pending: Array<{ id: number; prev: string; hash: string }> = [];
    const flush = async () => {
      if (pending.length === 0) return;
      const values = sql.join(pending.map((p) => sql`(${p.id}::bigint, ${p.prev}::text, ${p.hash}::text)`));
      await sql`update audit_log as a set prev_hash = v.prev, hash = v.hash from (values ${values}) as v(id, prev, hash) where a.id = v.id`.execute(trx);
      pending = [];
    };
    for await (const r of rowsInOrder(trx)) {
      const hash = hashAuditRow({ ...r, prev_hash: prev }, key);
      pending.push({ id: r.id, prev, hash });
      if (pending.length >= BATCH) await flush();
      prev = hash;
      count++;
    }
    await flush();
    const lastId = await sql<{ id: number | string }>`select max(id) as id from audit_log`.execute(trx);
    await sql`update audit_chain set last_id = ${Number(lastId.rows[0]!.id)}, last_hash = ${prev} where id = 1`.execute(trx);
    registerAuditKey(trx, key);
    await appendAudit(trx, {
      action: 'audit.chain_keyed',
      userId: null,
      ip: null,
      entity: null,
      entityId: null,
      details: { rows: count, lastUnkeyedId: Number(lastId.rows[0]!.id) },
      changes: null,
    });
    return count;
  });
  mark();
  if (rows === null) return { state: 'keyed', message: 'The audit chain was keyed by another server meanwhile.' };
  return {
    state: 'rekeyed',
    rows,
    message: `The audit log's ${rows} rows written before the audit key were verified and re-anchored with it (audit entry audit.chain_keyed).`,
  };
}

/**
 * Keys the audit rows a tool other than the server appends (the seed, say) as the server would:
 * the data key's audit key for `db`, and the stored chain keyed with it. Without it a tool's rows
 * would be plain hashes behind a keyed chain, which the next server start reports as rewritten.
 */
export async function keyAuditLogOf(db: Kysely<any>, config: Pick<AppConfig, 'dataKey' | 'jwtSecret' | 'dataDir' | 'databaseUrl'>): Promise<KeyingOutcome> {
  const dataKey = loadDataKey(config, { create: true })!;
  const key = deriveKey(dataKey.source, AUDIT_KEY_LABEL);
  registerAuditKey(db, key);
  return keyAuditChain(db, key, { markerDir: config.dataDir === ':memory:' ? undefined : config.dataDir, database: databaseName(config) });
}
