import { type Kysely, sql } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';

/**
 * One row per entity table, `version` raised by a statement-level trigger on every insert, update,
 * delete and truncate of that table (installed by `db/sync/data-versions.ts`), in the writing
 * transaction. Versions only grow: the table is never dumped, emptied or restored by backups.
 */
export const DATA_VERSIONS_TABLE = 'entity_data_versions';

/**
 * The tables whose rows a list of `entity` can show or filter on: its own, every relation's
 * target (for includes and relation filters) and every entity a computed field counts, followed
 * transitively (a contest's customer's company). Sorted, without repeats.
 */
export function dependencyTables(entity: LoadedEntity, registry: { readonly byName: ReadonlyMap<string, LoadedEntity> }): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const current = registry.byName.get(name);
    if (!current || seen.has(current.descriptor.table)) return;
    seen.add(current.descriptor.table);
    for (const relation of Object.values(current.descriptor.relations)) visit(relation.entity);
    for (const computed of Object.values(current.descriptor.computed)) visit(computed.entity);
  };
  visit(entity.descriptor.name);
  return [...seen].sort();
}

/**
 * The data version of a set of tables: the sum of their versions, as text. Every version only
 * grows, so the sum changes whenever any of the tables changed since it was last read.
 */
export async function readDataVersion(db: Kysely<any>, tables: readonly string[], snapshot?: DataVersionSnapshot): Promise<string> {
  if (snapshot) return snapshot.of(tables);
  const result = await sql<{ v: string }>`select ${versionSum(tables)} as v`.execute(db);
  return String(result.rows[0]?.v ?? '0');
}

/** The data version of `tables` as a scalar subquery (the sum of their versions, as text; `0` for none). */
export function versionSum(tables: readonly string[]) {
  return sql<string>`(select coalesce(sum(version), 0)::text from ${sql.table(DATA_VERSIONS_TABLE)} where table_name = any(${tables as string[]}))`;
}

/** The versions a server last read from the database, per database (what a presuming snapshot starts from). */
const lastRead = new WeakMap<Kysely<any>, Map<string, bigint>>();

/**
 * Thrown when a presuming snapshot's versions (see {@link DataVersionSnapshot}) turn out not to be
 * the database's: whatever the request planned with them is dropped, and it runs again with the
 * versions read first.
 */
export class StaleDataVersions extends Error {
  constructor() {
    super('The data versions a list was planned with have changed.');
  }
}

/** The column a checked page statement answers its check in (removed before the rows are returned). */
export const FRESH_COLUMN = '__fresh';

/**
 * The data versions of every entity table, read once for a request however many parts of it ask:
 * the list cache, the page marks and the relation totals of one list request each asked the
 * database before. Read at the first question, which comes before the rows it guards, as each
 * read did on its own; the answers are the sums {@link readDataVersion} gives.
 *
 * A presuming snapshot (`presume: true`, a list route's) answers from the versions this server
 * last read instead of asking first, and notes every table it answered for: the page's own
 * statement then checks them ({@link checkedStatement}), in the same snapshot as its rows, so a
 * list costs one round trip instead of two. When they moved, the request is run again with the
 * versions read first ({@link StaleDataVersions}). Anything kept under a presumed version that was
 * already old (a total, page marks, a scope's answer) is only ever used by requests that presume
 * that same old version, and those fail their check: versions only grow.
 */
export class DataVersionSnapshot {
  #all: Promise<Map<string, bigint>> | undefined;
  readonly #presumed: Map<string, bigint> | undefined;
  /** Tables a presumed answer was given for: the page's statement checks them. */
  readonly #checked = new Set<string>();

  constructor(
    private readonly db: Kysely<any>,
    options: { presume?: boolean } = {},
  ) {
    this.#presumed = options.presume ? lastRead.get(db) : undefined;
    if (this.#presumed) this.#all = Promise.resolve(this.#presumed);
  }

  /** Whether the answers are presumed (the versions this server last read), not read for this request. */
  get presumed(): boolean {
    return this.#presumed !== undefined;
  }

  /**
   * The data version of `tables` (the sum of their versions, as text). `unchecked`: an answer the
   * page's statement need not check, because a version older than the rows' is safe for its use
   * (the list cache stores a body under it, as it does under a version read before the rows).
   */
  async of(tables: readonly string[], options: { unchecked?: boolean } = {}): Promise<string> {
    if (this.#presumed && !options.unchecked) for (const table of tables) this.#checked.add(table);
    this.#all ??= this.#read();
    const all = await this.#all;
    return sumOf(all, new Set(tables));
  }

  /** The tables to check and the sum of their presumed versions, when there is anything to check. */
  check(): { tables: string[]; expected: string } | undefined {
    if (!this.#presumed || this.#checked.size === 0) return undefined;
    const tables = [...this.#checked].sort();
    return { tables, expected: sumOf(this.#presumed, this.#checked) };
  }

  /**
   * Checks the presumed versions by reading them (a list that ran no page statement to check
   * them in). @throws StaleDataVersions when they moved.
   */
  async confirm(): Promise<void> {
    const check = this.check();
    if (!check) return;
    if (sumOf(await this.#read(), this.#checked) !== check.expected) throw new StaleDataVersions();
  }

  #read(): Promise<Map<string, bigint>> {
    return sql<{ table_name: string; v: string }>`select table_name, version::text as v from ${sql.table(DATA_VERSIONS_TABLE)}`
      .execute(this.db)
      .then((result) => {
        const all = new Map(result.rows.map((row) => [row.table_name, BigInt(row.v)]));
        lastRead.set(this.db, all);
        return all;
      });
  }
}

function sumOf(all: ReadonlyMap<string, bigint>, tables: ReadonlySet<string>): string {
  let sum = 0n;
  for (const table of tables) sum += all.get(table) ?? 0n;
  return sum.toString();
}

/**
 * `statement` (a `select`) with a first column, {@link FRESH_COLUMN}, that is true when the
 * presumed versions of `versions` are the database's as the statement reads its rows. Unchanged
 * when nothing is presumed, or when the statement is not a plain `select` (`checked` false: the
 * caller confirms by a read).
 */
export function checkedStatement(
  statement: { sql: string; parameters: readonly unknown[] },
  versions: DataVersionSnapshot,
): { sql: string; parameters: readonly unknown[]; checked: boolean } {
  const check = versions.check();
  if (!check || !statement.sql.startsWith('select ')) return { ...statement, checked: false };
  const n = statement.parameters.length;
  return {
    sql: `select (select coalesce(sum(version), 0)::text from "${DATA_VERSIONS_TABLE}" where table_name = any($${n + 1}::text[])) = $${n + 2} as "${FRESH_COLUMN}", ${statement.sql.slice('select '.length)}`,
    parameters: [...statement.parameters, check.tables, check.expected],
    checked: true,
  };
}

interface Entry {
  version: string;
  body: string;
}

/**
 * Serialised list responses keyed on the request and the data version of the tables they were
 * read from. A response is reused only while those tables are unchanged, so every answer is the
 * one a fresh read would give; any server on the same database sees a write made by another at
 * its next request (the version is read from the database each time). Bounded by the bytes of the
 * bodies it holds, least recently used out first.
 */
export class ListCache {
  readonly #entries = new Map<string, Entry>();
  readonly #reading = new Map<string, Promise<string>>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Whether a body is kept for `key` (at any version). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The cached body of `key` when it was stored at `version`; else undefined. */
  get(key: string, version: string): string | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.#delete(key, entry);
      return undefined;
    }
    // Map keeps insertion order: re-inserting makes the entry the most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.body;
  }

  set(key: string, version: string, body: string): void {
    const size = key.length + body.length;
    if (size > this.maxBytes / 4) return;
    const previous = this.#entries.get(key);
    if (previous) this.#delete(key, previous);
    this.#entries.set(key, { version, body });
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#delete(oldest, entry);
    }
  }

  /**
   * The body `read` makes for `key` at `version`, stored; requests for the same key and version
   * that come while it reads wait for that read rather than making their own (the first screen and
   * the app's first list ask for the same page at once, and a burst of visitors for the same page).
   * A failed read fails each of them (each then does what its own failure says).
   */
  async readOnce(key: string, version: string, read: () => Promise<string>): Promise<string> {
    const id = `${version}\u0000${key}`;
    let reading = this.#reading.get(id);
    if (!reading) {
      reading = read().then((body) => {
        this.set(key, version, body);
        return body;
      });
      this.#reading.set(id, reading);
      void reading.then(
        () => this.#reading.delete(id),
        () => this.#reading.delete(id),
      );
    }
    return reading;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  #delete(key: string, entry: Entry) {
    this.#entries.delete(key);
    this.#bytes -= key.length + entry.body.length;
  }
}

/**
 * The cache key of a list request: who asks (the response can depend on the role) and the query
 * with its parameters in a fixed order, so `?a=1&b=2` and `?b=2&a=1` share an entry.
 */
export function listCacheKey(path: string, role: string | undefined, query: Record<string, unknown>): string {
  const names = Object.keys(query).sort();
  return JSON.stringify([path, role ?? '', ...names.map((name) => [name, query[name]])]);
}
