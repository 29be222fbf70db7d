import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { type BenchTarget, benchEnv, listPlans, startBenchServer } from './bench-server.js';
import { runLoad } from './load.js';
import type { BenchContext } from './scenarios.js';

export const CATEGORY_ROWS = 10_000;

/**
 * Tops the target's categories up to `rows` (starting the app once, so tables, indexes and the
 * row counter exist) with one set-based insert: distinct names and slugs, a third inactive.
 */
async function seedCategories(target: BenchTarget, rows: number): Promise<number> {
  const app = await buildApp(loadConfig(benchEnv(target)), { logger: false });
  try {
    const { count } = (await app.db
      .selectFrom('categories' as never)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()) as { count: number };
    const missing = rows - Number(count);
    if (missing > 0) {
      const start = Number(count) + 1;
      await sql`insert into categories (name, description, slug, status, created_at, updated_at)
        select 'Bench Category ' || g, 'Description of bench category number ' || g,
               'bench-category-' || g, case when g % 3 = 0 then 'inactive' else 'active' end,
               now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
        from generate_series(${start}::int, ${start + missing - 1}::int) g`.execute(app.db);
      await sql`analyze categories`.execute(app.db);
    }
    return Math.max(rows, Number(count));
  } finally {
    await app.close();
  }
}

const CASES: Array<{ name: string; query: Record<string, string> }> = [
  { name: 'page 1 (server page size), exact total', query: { page: '1' } },
  { name: 'middle page 500', query: { page: '500' } },
  { name: 'last page 1000', query: { page: '1000' } },
  { name: 'sort name asc, page 1', query: { sort: 'name', page: '1' } },
  { name: 'status inactive, page 1', query: { status: 'inactive', page: '1' } },
  { name: 'search "category 1234", page 1', query: { search: 'category 1234', page: '1' } },
];

/**
 * The categories list at 10,000 rows, on PGlite always and on PostgreSQL when a bench database
 * URL is given: p50 / p99 / requests per second per case, with each list query's plan top node.
 */
export async function runCategoriesBench(context: BenchContext): Promise<boolean> {
  const targets: Array<{ label: string; target: BenchTarget }> = [{ label: 'PGlite', target: { kind: 'pglite', dataDir: context.pgliteDir('categories') } }];
  if (context.postgresUrl) targets.push({ label: 'PostgreSQL', target: { kind: 'postgres', url: context.postgresUrl } });
  else context.log('PostgreSQL skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a database the bench may fill.');
  let ok = true;
  for (const { label, target } of targets) {
    const total = await seedCategories(target, CATEGORY_ROWS);
    context.log(`\ncategories on ${label}: ${total} rows, ${context.connections} connections, ${context.seconds} s per case`);
    const plans = new Map<string, string[]>();
    for (const c of CASES) plans.set(c.name, await listPlans(target, 'category', c.query));
    const server = await startBenchServer(target);
    try {
      for (const c of CASES) {
        const path = `/api/categories?${new URLSearchParams(c.query)}`;
        const result = await runLoad(`${server.base}${path}`, server.headers, context.connections, context.seconds);
        const check = (await (await fetch(`${server.base}${path}`, { headers: server.headers })).json()) as { meta: { total: number }; data: unknown[] };
        // 10,000 rows is small: a sequential scan the planner prefers is shown in the plan line, not failed.
        if (result.errors > 0) ok = false;
        context.log(
          `${result.errors > 0 ? 'FAILED' : 'ok    '} ${label} ${c.name}: p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.rps} req/s, max ${result.max} ms, ${result.requests} requests, ${result.errors} errors; total ${check.meta.total}, rows ${check.data.length}`,
        );
        context.log(`       GET ${path}  [${context.command}]`);
        for (const plan of plans.get(c.name)!) context.log(`       plan ${plan}`);
      }
    } finally {
      await server.stop();
    }
  }
  return ok;
}
