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
  const result = await sql<{
    v: string | number | null;
  }>`select sum(version)::text as v from ${sql.table(DATA_VERSIONS_TABLE)} where table_name = any(${tables as string[]})`.execute(db);
  return String(result.rows[0]?.v ?? '0');
}

/**
 * The data versions of every entity table, read once for a request however many parts of it ask:
 * the list cache, the page marks and the relation totals of one list request each asked the
 * database before. Read at the first question, which comes before the rows it guards, as each
 * read did on its own; the answers are the sums {@link readDataVersion} gives.
 */
export class DataVersionSnapshot {
  #all: Promise<Map<string, bigint>> | undefined;

  constructor(private readonly db: Kysely<any>) {}

  /** The data version of `tables` (the sum of their versions, as text). */
  async of(tables: readonly string[]): Promise<string> {
    this.#all ??= sql<{ table_name: string; v: string }>`select table_name, version::text as v from ${sql.table(DATA_VERSIONS_TABLE)}`
      .execute(this.db)
      .then((result) => new Map(result.rows.map((row) => [row.table_name, BigInt(row.v)])));
    const all = await this.#all;
    let sum = 0n;
    for (const table of new Set(tables)) sum += all.get(table) ?? 0n;
    return sum.toString();
  }
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
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

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
