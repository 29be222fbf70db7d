import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one PGlite instance to Kysely's PostgresDialect as a pool of one connection.
 * PGlite runs a single backend, so a checked-out client holds it exclusively until released:
 * a transaction's statements are never interleaved with another request's.
 */
export class PglitePool implements PostgresPool {
  #queue: Promise<void> = Promise.resolve();

  /**
   * @param waitTimeoutMs Longest a query waits for its turn; then it fails as unavailable (503), so
   * that code asking for the pool while holding it (a query on `db` inside a transaction) cannot
   * stall the server for ever.
   */
  constructor(
    private readonly pg: PGlite,
    private readonly waitTimeoutMs = 30_000,
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#queue;
    this.#queue = previous.then(() => turn);
    let timer: NodeJS.Timeout | undefined;
    const myTurn = await Promise.race([
      previous.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.waitTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (!myTurn) {
      // The place in the queue is passed on untaken.
      void previous.then(release);
      throw new Error(`timeout exceeded when trying to connect: PGlite stayed busy for ${this.waitTimeoutMs} ms`);
    }
    let released = false;
    const pg = this.pg;
    const client = {
      async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        const result = await pg.query<R>(sql, parameters as unknown[]);
        // PGlite runs each statement on this thread and answers as a microtask: a loop of statements
        // (an import's key lookups, its inserts) would hold every other request until its end. A
        // turn of the event loop after each statement lets them in between.
        await new Promise((resolve) => setImmediate(resolve));
        return {
          command: commandOf(sql),
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release() {
        if (!released) {
          released = true;
          release();
        }
      },
    };
    // PGlite has no cursors; Kysely only uses the (sql, parameters) form unless asked to stream.
    return client as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.#queue;
  }
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const word = /^\s*(?:with\b[\s\S]*?\)\s*)?(\w+)/i.exec(sql)?.[1]?.toUpperCase();
  switch (word) {
    case 'INSERT':
    case 'UPDATE':
    case 'DELETE':
    case 'MERGE':
    case 'SELECT':
      return word;
    default:
      return 'SELECT';
  }
}
