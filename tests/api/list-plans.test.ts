import { CompiledQuery, type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkSeed } from '../../src/features/demo/server/bulk-seed.js';
import { createRegistry } from '../../src/server/operations/context.js';
import { list } from '../../src/server/operations/list.js';
import { fieldKind } from '../../src/shared/descriptor/schema-fields.js';
import type { ListFilter, LoadedEntity } from '../../src/shared/descriptor/types.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 17: every allowed sort and filter of every descriptor reaches its first page and a deep
 * page without reading a large table from the start. On a seeded database (30,000 contests), each
 * statement of each list request (every sort × direction × no filter or one filter, page 1 and a
 * page a third of the way in) is EXPLAINed (ANALYZE, so the plan is the one that ran), and the
 * test fails on
 * - a sequential scan of a large table (≥ LARGE rows), or
 * - a Sort of more than one page's rows over a large table (the page must come in index order;
 *   the Sort on top of a page's own rows is fine).
 * The page marks' background read (page-marks.ts), one pass over a list once per data version, is
 * left out. A substring filter (`ilike`) has no index order: its matches are merged from the related rows'
 * index reads (page-rows.ts), bounded by the page's depth, so only the first rule applies to it.
 */
const CONTESTS = 30_000;
const LARGE = 10_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

/** Captures the SQL of every statement a list request runs (compiled as it was sent). */
function capturing(db: Kysely<any>, into: CompiledQuery[]): Kysely<any> {
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      into.push(db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return db.withPlugin(plugin);
}

describe.each(testDatabaseKinds())('list query plans on a seeded database (%s)', (kind) => {
  let t: TestApp;
  let db: Kysely<any>;
  const sizes = new Map<string, number>();

  beforeAll(async () => {
    t = await startTestApp(kind, { DEMO_DATA: 'true', LIST_CACHE_MB: '0' });
    db = t.app.db;
    await bulkSeed(db, t.app.entities, { contests: CONTESTS, customers: 600, campaigns: 60 });
    await sql`analyze`.execute(db);
    const tables = await sql<{
      relname: string;
      n: number;
    }>`select relname, reltuples::bigint as n from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`.execute(db);
    for (const row of tables.rows) sizes.set(row.relname, Number(row.n));
  }, 600_000);
  afterAll(async () => t?.close());

  /** A value of the filter that matches rows of the seeded data. */
  async function sampleValue(entity: LoadedEntity, filter: ListFilter): Promise<string | undefined> {
    if (filter.values) return Object.keys(filter.values)[0];
    const [first, second] = filter.field.split('.') as [string, string | undefined];
    const table = second ? t.app.entities.byName.get(entity.descriptor.relations[first]!.entity)!.descriptor.table : entity.descriptor.table;
    const column = second ?? first;
    const row = (
      await sql<{
        v: unknown;
      }>`select ${sql.ref(column)} as v from ${sql.table(table)} where ${sql.ref(column)} is not null group by 1 order by count(*) desc limit 1`.execute(db)
    ).rows[0];
    if (!row) return undefined;
    const property = (second ? t.app.entities.byName.get(entity.descriptor.relations[first]!.entity)! : entity).schema.properties![column]!;
    if (filter.operator === 'ilike') return String(row.v).split(/\s+/)[0]!.toLowerCase();
    if (row.v instanceof Date) return row.v.toISOString().slice(0, 10);
    if (fieldKind(property) === 'date-time' || fieldKind(property) === 'date') return String(row.v).slice(0, 10);
    return String(row.v);
  }

  /** What is wrong with one statement's plan (empty when nothing is). */
  async function problems(query: CompiledQuery, perPage: number, substring: boolean): Promise<string[]> {
    const explained = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]));
    const raw = explained.rows[0]!['QUERY PLAN'];
    const plan = ((typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>)[0]!.Plan;
    const found: string[] = [];
    const touchesLarge = (node: PlanNode): boolean =>
      (node['Relation Name'] !== undefined && (sizes.get(node['Relation Name']) ?? 0) >= LARGE) || (node.Plans ?? []).some(touchesLarge);
    const walk = (node: PlanNode) => {
      if (node['Node Type'] === 'Seq Scan' && (sizes.get(node['Relation Name']!) ?? 0) >= LARGE) found.push(`Seq Scan on ${node['Relation Name']}`);
      if (node['Node Type'] === 'Sort' && !substring && touchesLarge(node)) {
        // The rows sorted: its input's (not an InitPlan's or SubPlan's, which feed single values).
        // Per run of the Sort (inside a loop it runs once per outer row).
        const input = (node.Plans ?? [])
          .filter((child) => (child['Parent Relationship'] ?? 'Outer') === 'Outer')
          .reduce((sum, child) => sum + ((child['Actual Rows'] ?? 0) * (child['Actual Loops'] ?? 1)) / Math.max(1, node['Actual Loops'] ?? 1), 0);
        if (input > perPage) found.push(`Sort of ${input} rows`);
      }
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan);
    return found;
  }

  it('reads every list of every descriptor in index order, without a sequential scan of a large table', async () => {
    const registry = createRegistry(t.app.entities.entities);
    const failures: string[] = [];
    let statements = 0;
    for (const entity of registry.entities) {
      const d = entity.descriptor;
      if (d.permissions.list.length === 0) continue;
      const filterCases: Array<{ name: string; query: Record<string, string>; substring: boolean }> = [{ name: 'no filter', query: {}, substring: false }];
      for (const filter of d.list.filters) {
        const value = await sampleValue(entity, filter);
        if (value !== undefined)
          filterCases.push({ name: `${filter.param}=${value}`, query: { [filter.param]: value }, substring: filter.operator === 'ilike' });
      }
      for (const sort of new Set([...d.list.sorts, d.list.defaultSort.field])) {
        for (const direction of ['asc', 'desc']) {
          for (const filterCase of filterCases) {
            const base = { ...filterCase.query, sort, direction, per_page: String(d.list.pageSize) };
            const first = await list(entity, { query: { ...base, page: '1' } }, { db, registry });
            const deep = Math.max(1, Math.floor(first.meta.last_page / 3));
            for (const page of new Set([1, deep])) {
              const compiled: CompiledQuery[] = [];
              await list(entity, { query: { ...base, page: String(page) } }, { db: capturing(db, compiled), registry });
              // The page marks' background read (page-marks.ts: one pass, once per data version) is not the page's.
              for (const query of compiled.filter((q) => !q.sql.includes('row_number() over'))) {
                statements++;
                for (const problem of await problems(query, d.list.pageSize, filterCase.substring)) {
                  failures.push(`${d.name} sort ${sort} ${direction}, ${filterCase.name}, page ${page}: ${problem}\n    ${query.sql}`);
                }
              }
            }
          }
        }
      }
    }
    expect(statements).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 900_000);
});
