import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PglitePool } from './pglite-pool.js';
import { isStalePreparedStatement, PreparedStatements } from './prepared-statements.js';
import type { SystemTables } from './system-tables.js';

/** Which engine a {@link Database} runs on. */
export type DatabaseKind = 'pglite' | 'postgres';

/** The open database: a Kysely instance plus what the server needs to manage it. */
export interface Database {
  /** Typed for the system tables; entity tables are reached with `db.dynamic` or raw `sql`. */
  db: Kysely<SystemTables>;
  kind: DatabaseKind;
  /** A cheap round trip, for health checks. */
  ping(): Promise<void>;
  /** Closes every connection; for PGlite, shuts the embedded Postgres down cleanly. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite's data folder; `undefined` keeps the database in memory (tests). */
  pgliteDir?: string;
  /** How long a query waits for a pool connection before failing as unavailable. */
  connectTimeoutMs?: number;
  /**
   * Longest a PostgreSQL statement runs (`statement_timeout`); the client gives up a little later
   * on its own, so a database that stops answering (a frozen network) cannot hold a request.
   */
  queryTimeoutMs?: number;
  /** Largest number of PostgreSQL connections this process holds. */
  poolSize?: number;
  /** Hot selects as named statements (default); `false` behind a pooler that cannot keep them. */
  preparedStatements?: boolean;
  onPoolError?: (error: Error) => void;
}

// One parsing rule for both engines: int8 (counts, sums) as numbers, dates as 'YYYY-MM-DD' text,
// timestamps as Date, numerics as exact text.
const INT8 = 20;
const DATE = 1082;
const NUMERIC = 1700;

/** Opens PGlite or PostgreSQL behind one Kysely interface, with the same value parsing on both. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options.pgliteDir, options.queryTimeoutMs);
}

// PGlite keeps Postgres's shared buffers inside its wasm memory, so the stock 128MB is resident once
// the pages are touched: 16MB keeps the server's resident memory small on a large database (10 MB
// less under the spread than 24MB; see src/server/memory.ts), and the OS page cache still holds the
// data files.
// `startParams` replaces PGlite's defaults, so they are kept. The wasm memory's initial 128MB cannot
// shrink: pglite.wasm declares it as its minimum.
// gin_pending_list_limit: a trigram (GIN) index gathers new rows in a pending list and folds it in
// when it passes this size, inside whichever insert passes it: with the 4 MB default that insert held the server's
// thread (PGlite runs there) up to 150 ms during a large import; 256 KB folds in often and briefly.
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'gin_pending_list_limit=256kB'];

async function openPglite(dataDir: string | undefined, waitTimeoutMs?: number): Promise<Database> {
  const pglite = await PGlite.create({
    dataDir,
    startParams: PGLITE_START_PARAMS,
    extensions: { pg_trgm },
    parsers: {
      [INT8]: (value: string) => Number(value),
      [DATE]: (value: string) => value,
      [NUMERIC]: (value: string) => value,
    },
  });
  const db = new Kysely<SystemTables>({ dialect: new PostgresDialect({ pool: new PglitePool(pglite, waitTimeoutMs) }) });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    // Asked of the engine itself, not through the pool: a request holding PGlite's one session (an
    // import's write transaction holds it for a minute) must not make a load balancer think the
    // database is gone. `select 1` touches nothing, so it may run between another's statements; an
    // answer that the holder's transaction has failed (25P02) still shows the engine answering.
    async ping() {
      try {
        await pglite.query('select 1');
      } catch (error) {
        if ((error as { code?: string }).code !== '25P02') throw error;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** How much longer than `statement_timeout` the client waits before it gives a query up. */
const CLIENT_TIMEOUT_MARGIN_MS = 2000;
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * Turns the rows of a query run with `rowMode: 'array'` into objects keyed by column name, as pg's
 * own rows are (a later column of the same name wins). pg builds each row by copying a
 * dictionary-mode template, which makes rows slow to build, read and serialise (a list page's 15
 * rows of 28 columns: about a quarter of the query's cost in the client); rows built by assigning
 * the columns in order share one hidden class.
 */
function rowsAsObjects(result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult | pg.QueryResult[] {
  // Several statements in one text (no parameters: the simple protocol) answer one result each.
  if (Array.isArray(result)) return result.map((one) => rowsAsObjects(one) as pg.QueryResult);
  const fields = result.fields;
  if (!fields || fields.length === 0 || !Array.isArray(result.rows)) return result;
  const names = fields.map((field) => field.name);
  const count = names.length;
  // `row.__proto__ = value` would set the prototype: such a column is defined as a property.
  const define = names.includes('__proto__');
  const rows = new Array<Record<string, unknown>>(result.rows.length);
  for (let r = 0; r < rows.length; r++) {
    const values = result.rows[r] as unknown[];
    const row: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      if (define && names[i] === '__proto__')
        Object.defineProperty(row, '__proto__', { value: values[i], writable: true, enumerable: true, configurable: true });
      else row[names[i]!] = values[i];
    }
    rows[r] = row;
  }
  result.rows = rows;
  return result;
}

const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|end|rollback)\s*(;|$|work\b|transaction\b|and\b)/i;

/**
 * Wraps a connection's `query`:
 * - a hot `select` goes as a named statement ({@link PreparedStatements}), parsed once on this
 *   connection. If PostgreSQL refuses its prepared form (a table's columns changed under a running
 *   server: another server's schema sync), the text is no longer named and runs again unnamed;
 *   inside a transaction, which the refusal has aborted, the error stands;
 * - rows come in array mode and are built here ({@link rowsAsObjects});
 * - a query the client gave up on is still on its connection, and whatever answers next would be
 *   taken for the next query's: the connection is closed instead, so the pool opens a fresh one.
 */
function wrapQuery(client: pg.PoolClient, statements: PreparedStatements, watch?: QueryWatch): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const drop = () => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  let inTransaction = false;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    // Kysely's form (text and parameters); anything else (a config object, a callback) goes as it came.
    const plain = typeof text === 'string' && Array.isArray(values) && args.length === 2;
    if (plain && BEGIN.test(text)) inTransaction = true;
    else if (plain && END.test(text)) inTransaction = false;
    const name = plain ? statements.nameOf(text) : undefined;
    const run = (as: string | undefined) =>
      (query({ name: as, text, values, rowMode: 'array' }) as Promise<pg.QueryResult | pg.QueryResult[]>).then(rowsAsObjects);
    let result = plain ? run(name) : query(...args);
    if (name !== undefined) {
      result = (result as Promise<unknown>).catch((error: unknown) => {
        if (!isStalePreparedStatement(error)) throw error;
        statements.refuse(text as string);
        if (!inTransaction) return run(undefined);
        throw error;
      });
    }
    if (result && typeof (result as Promise<unknown>).catch === 'function') {
      watch?.started(client, drop);
      (result as Promise<unknown>).then(
        () => watch?.settled(client),
        (error: Error) => {
          watch?.settled(client);
          if (error?.message === QUERY_TIMEOUT_MESSAGE) drop();
        },
      );
    }
    return result;
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const queryTimeoutMs = options.queryTimeoutMs ?? 30_000;
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8) return (value: string) => Number(value);
      if (oid === DATE || oid === NUMERIC) return (value: string) => value;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    idleTimeoutMillis: 30_000,
    // A statement that runs longer is a bug or an attack; it must not hold a connection. The server
    // stops it (57014, answered 503); when the server itself has gone silent the client stops
    // waiting shortly after, and TCP keepalive notices a dead peer on idle connections.
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: types as pg.CustomTypesConfig,
  });
  const statements = new PreparedStatements(options.preparedStatements === false ? 0 : undefined);
  const watch = new QueryWatch(url, options.connectTimeoutMs ?? 2000);
  // An idle connection dropped by the server emits here; without a listener the process would exit.
  pool.on('error', (error) => options.onPoolError?.(error));
  // A connection lost while checked out (between a transaction's statements, or just after a
  // query) emits on the client itself, where pg-pool listens only while it is idle: without this
  // listener a database restart would crash the server. The query in flight still fails (503).
  pool.on('connect', (client) => {
    client.on('error', (error) => options.onPoolError?.(error));
    wrapQuery(client, statements, watch);
  });
  const db = new Kysely<SystemTables>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      if (closed) return;
      closed = true;
      watch.stop();
      await db.destroy();
    },
  };
}

/**
 * Notices a PostgreSQL that has gone silent (a frozen network, a stopped VM) under queries already
 * on a connection. A new connection gives up after the connect timeout (2 s: a 503), but a query
 * sent on a connection the request already held waited for the client's query timeout (32 s). When
 * a query has waited {@link SILENCE_AFTER_MS} (or the connect timeout, if longer), a probe opens a
 * fresh connection and asks `select 1`; if the server does not answer within that time either, the
 * connections of the waiting queries are closed, so those requests answer 503 then (about 10 s, not
 * the query timeout). A server that answers at all (even "too many connections"), however slowly
 * within that time, is alive: its slow queries are left alone.
 */
const SILENCE_AFTER_MS = 5000;

class QueryWatch {
  readonly #inFlight = new Map<pg.PoolClient, { since: number; drop: () => void }>();
  readonly #timer: NodeJS.Timeout;
  #probing = false;

  private readonly timeoutMs: number;

  constructor(
    private readonly url: string,
    connectTimeoutMs: number,
  ) {
    // Longer than the connect timeout: a loaded server that is slow to open a connection is not silent.
    this.timeoutMs = Math.max(SILENCE_AFTER_MS, connectTimeoutMs);
    this.#timer = setInterval(() => this.#check(), 1000);
    this.#timer.unref();
  }

  started(client: pg.PoolClient, drop: () => void): void {
    if (!this.#inFlight.has(client)) this.#inFlight.set(client, { since: Date.now(), drop });
  }

  settled(client: pg.PoolClient): void {
    this.#inFlight.delete(client);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#inFlight.clear();
  }

  #check(): void {
    if (this.#probing) return;
    const now = Date.now();
    const waiting = [...this.#inFlight].filter(([, query]) => now - query.since >= this.timeoutMs);
    if (waiting.length === 0) return;
    this.#probing = true;
    void this.#alive()
      .then((alive) => {
        if (alive) return;
        for (const [client, query] of waiting) {
          if (this.#inFlight.get(client) !== query) continue;
          this.#inFlight.delete(client);
          query.drop();
        }
      })
      .finally(() => {
        this.#probing = false;
      });
  }

  async #alive(): Promise<boolean> {
    const probe = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: this.timeoutMs, query_timeout: this.timeoutMs });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.query('select 1');
      return true;
    } catch (error) {
      // An SQLSTATE is an answer from the server: it is there.
      return typeof (error as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((error as { code: string }).code);
    } finally {
      void probe.end().catch(() => undefined);
    }
  }
}

const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);
// 57P01-03: the server is shutting down or starting; 53300: too many connections; 57014: the
// statement ran past statement_timeout (a busy or stuck database: try again later, not a bug of ours).
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** Whether an error means the database cannot be reached right now (as opposed to a bad query). */
export function isUnavailableError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) {
      return true;
    }
  }
  if (typeof message === 'string') {
    return /timeout exceeded when trying to connect|Connection terminated|connection timeout|Client has encountered a connection error|Query read timeout/i.test(
      message,
    );
  }
  return false;
}
