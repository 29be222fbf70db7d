import type { Kysely } from 'kysely';
import type { CountRequest, CountStrategy } from '../count.js';
import { readDataVersion } from '../list-cache.js';

/** Totals kept per list, at most this many per database and strategy (least recently used out first). */
const MAX_TOTALS = 4096;

interface Kept {
  version: string;
  total: number;
}

const byStrategy = new WeakMap<CountStrategy, WeakMap<Kysely<any>, Map<string, Kept>>>();

function keptOf(strategy: CountStrategy, db: Kysely<any>): Map<string, Kept> {
  let byDb = byStrategy.get(strategy);
  if (!byDb) {
    byDb = new WeakMap();
    byStrategy.set(strategy, byDb);
  }
  let kept = byDb.get(db);
  if (!kept) {
    kept = new Map();
    byDb.set(db, kept);
  }
  return kept;
}

/**
 * The exact total of a filtered list, kept while the tables it reads (the entity's, and those its
 * relation filters cross) keep their data version: the version comes with the request's one read
 * of the versions (`request.versions`), so a later page of the same list asks the database only for
 * its rows. Another server's write raises the version, and the next page counts again. The total a
 * first page read with its rows is kept too ({@link keepTotal}).
 */
export async function keptTotal(strategy: CountStrategy, request: CountRequest): Promise<number> {
  const { key, version } = await keyOf(request);
  const kept = keptOf(strategy, request.db);
  const known = kept.get(key);
  if (known?.version === version) {
    kept.delete(key);
    kept.set(key, known);
    return known.total;
  }
  const total = await strategy.count(request);
  remember(kept, key, { version, total });
  return total;
}

/** Keeps a total counted elsewhere (a first page's statement) for the list's later pages. */
export async function keepTotal(strategy: CountStrategy, request: KeyRequest, total: number): Promise<void> {
  const { key, version } = await keyOf(request);
  remember(keptOf(strategy, request.db), key, { version, total });
}

/** What a kept total is keyed by: the list's entity, filters and search, at the request's data versions. */
type KeyRequest = Pick<CountRequest, 'entity' | 'db' | 'filters' | 'search' | 'versions'>;

async function keyOf(request: KeyRequest): Promise<{ key: string; version: string }> {
  const table = request.entity.descriptor.table;
  const filters = request.filters ?? [];
  const key = JSON.stringify([
    table,
    request.search ?? null,
    filters.map((applied) => [applied.column, applied.relation?.field ?? null, applied.filter.operator, applied.value]),
  ]);
  const related = filters.flatMap((applied) => (applied.relation ? [applied.relation.target.descriptor.table] : []));
  const version = await readDataVersion(request.db, [table, ...new Set(related)], request.versions);
  return { key, version };
}

function remember(kept: Map<string, Kept>, key: string, value: Kept): void {
  kept.delete(key);
  kept.set(key, value);
  if (kept.size > MAX_TOTALS) kept.delete(kept.keys().next().value!);
}
