import os from 'node:os';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.js';
import { createRegistry, type EntityRegistry } from '../../src/server/operations/context.js';
import { list } from '../../src/server/operations/list.js';
import { loadConfiguredEntities } from '../../src/server/plugins/entities.js';
import { runBareComparison } from './bare-page.js';
import { type BenchTarget, rssMb, startBenchServer } from './bench-server.js';
import { type LoadResult, runLoad } from './load.js';
import { cpuMeter, runSpread, spreadRequests } from './spread.js';

/** One measured request: its query string and the targets it must meet. */
export interface ContestCase {
  name: string;
  query: Record<string, string>;
  minRps?: number;
  maxP99: number;
}

export interface ContestBenchOptions {
  /** PostgreSQL of the bench (never the tests' database), or undefined for PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir?: string;
  connections?: number;
  seconds?: number;
  /** The command line printed with every figure. */
  command: string;
  log: (line: string) => void;
}

const SORTS = ['created_at', 'updated_at', 'status', 'campaign_id'];

/** Each query a list request runs: its plan's top node, its execution time (EXPLAIN ANALYZE) and any sequential scan. */
async function plansOf(databaseUrl: string | undefined, registry: EntityRegistry, query: Record<string, string>): Promise<string[]> {
  if (!databaseUrl) return ['(plans are shown for PostgreSQL only)'];
  const compiled: CompiledQuery[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: (event) => void compiled.push(event.query) });
  try {
    await list(registry.byName.get('contest')!, { query }, { db, registry });
    const lines: string[] = [];
    for (const q of compiled) {
      const result = await pool.query(`explain (analyze, format json) ${q.sql}`, q.parameters as unknown[]);
      const explained = (result.rows[0]['QUERY PLAN'] as Array<{ Plan: Record<string, unknown>; 'Execution Time': number }>)[0]!;
      const plan = explained.Plan;
      const seq: string[] = [];
      const scans: string[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (node['Node Type'] === 'Seq Scan') seq.push(String(node['Relation Name']));
        if (String(node['Node Type']).includes('Index')) scans.push(`${node['Node Type']} using ${node['Index Name']}`);
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(plan);
      const top = `${plan['Node Type']}${plan['Relation Name'] ? ` on ${plan['Relation Name']}` : ''}${plan['Index Name'] ? ` using ${plan['Index Name']}` : ''}`;
      // A page read with its total and includes in one statement starts `select "page".*`: name it by its rows' table.
      const table = q.sql.startsWith('select "page".*')
        ? (/from "(\w+)" where "id" in \(/.exec(q.sql)?.[1] ?? '?')
        : (/from "?(\w+)"?/i.exec(q.sql)?.[1] ?? '?');
      const via = scans.length && !top.includes(' using ') ? ` (via ${[...new Set(scans)].join(', ')})` : '';
      lines.push(`${table}: ${top}${via}, executes in ${explained['Execution Time'].toFixed(2)} ms${seq.length ? `; SEQ SCAN on ${seq.join(', ')}` : ''}`);
    }
    return lines;
  } finally {
    await db.destroy();
  }
}

/**
 * The contests list scenarios against a running server on a seeded database: page 1 with
 * include and total; filtered by customer id and by status, each sort both ways, first, middle
 * and last page; an agency-name substring. Prints each figure with its command and each list
 * query's plan top node. Returns false when a target is missed or a plan scans contests.
 */
export async function runContestBench(options: ContestBenchOptions): Promise<boolean> {
  const registry = createRegistry(loadConfiguredEntities(loadConfig({})));
  const target: BenchTarget = options.databaseUrl ? { kind: 'postgres', url: options.databaseUrl } : { kind: 'pglite', dataDir: options.dataDir ?? 'data' };
  const server = await startBenchServer(target);
  const { base, headers } = server;
  let ok = true;
  try {
    const first = (await (await fetch(`${base}/api/contests?per_page=1`, { headers })).json()) as {
      data: Array<{ customer_id: number }>;
      meta: { total: number };
    };
    const customerId = String(first.data[0]?.customer_id ?? 1);
    options.log(
      `contests in the database: ${first.meta.total} (${options.databaseUrl ? 'PostgreSQL, BENCH_DATABASE_URL' : `PGlite, BENCH_DATA_DIR=${options.dataDir}`}); customer for the filter: ${customerId}`,
    );
    const cacheMb = process.env.LIST_CACHE_MB ?? `${options.databaseUrl ? 16 : 4} (the default on ${options.databaseUrl ? 'PostgreSQL' : 'PGlite'})`;
    options.log(
      cacheMb === '0'
        ? 'list cache: off (LIST_CACHE_MB=0): every request reads its page and total from the database'
        : `list cache: on, LIST_CACHE_MB=${cacheMb}: after the first request each case is answered from the cache after one data-version query; run with LIST_CACHE_MB=0 for the uncached figures`,
    );
    const pglite = !options.databaseUrl;
    const parts = (process.env.BENCH_CONTESTS ?? 'cases,spread,bare').split(',');
    // After the cases: the spread and the bare page start servers of their own, whose sign-in as
    // the bench admin ends this server's session (one session per account).
    const others = async () => {
      if (parts.includes('spread')) ok = (await runSpreadCases(options, target, server, pglite)) && ok;
      if (parts.includes('bare') && options.databaseUrl) ok = (await runBareComparison({ ...options, databaseUrl: options.databaseUrl })) && ok;
      return ok;
    };
    if (!parts.includes('cases')) return await others();
    const cases: ContestCase[] = [
      {
        name: 'page 1, include customer,category, exact total',
        query: { page: '1', per_page: '15', include: 'customer,category' },
        minRps: pglite ? 800 : 2500,
        maxP99: 25,
      },
    ];
    if (!pglite) {
      for (const [label, filter] of [
        ['customer', { 'q[customer_id]': customerId }],
        ['status', { status: 'approved' }],
      ] as const) {
        for (const sort of SORTS) {
          for (const direction of ['asc', 'desc']) {
            const probe = (await (
              await fetch(`${base}/api/contests?${new URLSearchParams({ ...filter, sort, direction, per_page: '15' })}`, { headers })
            ).json()) as { meta: { last_page: number } };
            const last = probe.meta.last_page;
            for (const [where, page, p99] of [
              ['first', 1, 25],
              ['middle', Math.max(1, Math.floor(last / 2)), 150],
              ['last', last, 25],
            ] as const) {
              cases.push({
                name: `${label} filter, sort ${sort} ${direction}, ${where} page (${page})`,
                query: { ...filter, sort, direction, page: String(page), per_page: '15', include: 'customer,category' },
                maxP99: p99,
              });
            }
          }
        }
      }
      const agency = { 'q[agency_name]': 'rimba', per_page: '15', include: 'customer,category' };
      const agencyLast = ((await (await fetch(`${base}/api/contests?${new URLSearchParams(agency)}`, { headers })).json()) as { meta: { last_page: number } })
        .meta.last_page;
      cases.push({ name: 'agency name "rimba", first page', query: { ...agency, page: '1' }, maxP99: 100 });
      cases.push({ name: `agency name "rimba", last page (${agencyLast})`, query: { ...agency, page: String(agencyLast) }, maxP99: 100 });
    }
    for (const c of cases) {
      const url = `${base}/api/contests?${new URLSearchParams(c.query)}`;
      const connections = options.connections ?? 10;
      const seconds = c.minRps ? (options.seconds ?? 10) : Math.max(2, Math.round((options.seconds ?? 10) / 4));
      const result: LoadResult = await runLoad(url, headers, connections, seconds);
      const check = (await (await fetch(url, { headers })).json()) as { meta: { total: number } };
      const missed = (c.minRps !== undefined && result.rps < c.minRps) || result.p99 > c.maxP99 || result.errors > 0;
      const plans = await plansOf(options.databaseUrl, registry, c.query);
      if (missed || plans.some((p) => p.includes('SEQ SCAN on contests'))) ok = false;
      options.log(
        `${missed ? 'MISSED' : 'ok    '} ${c.name}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms, ${result.requests} requests, ${result.errors} errors, total ${check.meta.total}` +
          ` (target${c.minRps ? ` ≥ ${c.minRps} req/s,` : ''} p99 ≤ ${c.maxP99} ms; ${connections} connections, ${seconds} s)`,
      );
      options.log(
        `       GET /api/contests?${new URLSearchParams(c.query)}  [${options.command}]; machine load average ${os
          .loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')} on ${os.cpus().length} cores`,
      );
      for (const plan of plans) options.log(`       plan ${plan}`);
    }
    await others();
  } finally {
    await server.stop();
  }
  return ok;
}

/** Spread targets: PostgreSQL (1,000,000 contests) and PGlite (100,000). */
const SPREAD_TARGETS = {
  postgres: { cached: { minRps: 600, maxP99: 100 }, uncached: { minRps: 500, maxP99: Infinity } },
  pglite: { cached: { minRps: 200, maxP99: 250 }, uncached: { minRps: 0, maxP99: Infinity } },
};

const MAX_PGLITE_RSS_MB = 300;

/**
 * The spread (tests/bench/spread.ts) on the bench's server (list cache as configured) and on a
 * second server with the cache off (LIST_CACHE_MB=0), each printed with its hit rate.
 */
async function runSpreadCases(
  options: ContestBenchOptions,
  target: BenchTarget,
  server: Awaited<ReturnType<typeof startBenchServer>>,
  pglite: boolean,
): Promise<boolean> {
  const { base, headers } = server;
  const getJson = async <T>(url: string) => (await (await fetch(`${base}${url}`, { headers })).json()) as T;
  const customers = (await getJson<{ meta: { total: number } }>('/api/customers?per_page=1')).meta.total;
  const categories = (await getJson<{ data: Array<{ id: number; name: string; status: string }> }>('/api/categories?per_page=100')).data.map(
    ({ id, name, status }) => ({ id, name, status }),
  );
  const seed = Number(process.env.BENCH_SPREAD_SEED ?? 17);
  const spread = (from: number) =>
    spreadRequests({
      count: 50_000,
      seed: from,
      sorts: SORTS,
      customerIds: Array.from({ length: customers }, (_, i) => i + 1),
      agencyNames: [
        'kancil',
        'rimba',
        'naga',
        'selat',
        'langit',
        'garuda',
        'arunika',
        'rajawali',
        'samudra',
        'pelangi',
        'merak',
        'harimau',
        'bintang',
        'cahaya',
        'teratai',
        'kenari',
        'mutiara',
        'nusa',
        'tanjung',
        'wira',
      ],
      categories,
    });
  const lines = spread(seed);
  // A warm-up on other requests of the same spread (another seed: the measured requests are not
  // in the list cache yet): a server's steady state, page marks read (BENCH_SPREAD_WARMUP seconds).
  const warmup = spread(seed + 1);
  const warmupSeconds = Number(process.env.BENCH_SPREAD_WARMUP ?? 10);
  const connections = options.connections ?? 10;
  const seconds = Math.max(10, options.seconds ?? 10);
  const targets = SPREAD_TARGETS[pglite ? 'pglite' : 'postgres'];
  let ok = true;
  const measure = async (on: Awaited<ReturnType<typeof startBenchServer>>) => {
    // The server's resident memory under load (its render thread and, on PGlite, the database included).
    let maxRssMb = 0;
    const sampler = setInterval(() => (maxRssMb = Math.max(maxRssMb, rssMb(on.pid))), 250);
    try {
      if (warmupSeconds > 0) await runSpread(on.base, on.headers, warmup, connections, warmupSeconds);
      const cpu = await cpuMeter(on.pid, options.databaseUrl);
      const result = await runSpread(on.base, on.headers, lines, connections, seconds);
      return { ...result, ...(await cpu()), maxRssMb };
    } finally {
      clearInterval(sampler);
    }
  };
  const report = (label: string, result: Awaited<ReturnType<typeof measure>>, goal: { minRps: number; maxP99: number }, command: string) => {
    const missed = result.rps < goal.minRps || result.p99 > goal.maxP99 || result.failures > 0 || result.socketErrors > 0;
    if (missed) ok = false;
    // DESIGN §8: server memory, PGlite with 100,000 contests, under load ≤ 300 MB RSS.
    const memoryMissed = pglite && result.maxRssMb > MAX_PGLITE_RSS_MB;
    if (memoryMissed) ok = false;
    const answered = result.hits + result.misses;
    options.log(
      `${missed ? 'MISSED' : 'ok    '} spread, ${label}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms, ${result.requests} requests, ` +
        `list cache hit rate ${answered ? ((100 * result.hits) / answered).toFixed(1) : '0.0'} % (${result.hits} of ${answered} lists), ${result.failures} non-2xx, ${result.socketErrors} socket errors` +
        ` (target ≥ ${goal.minRps} req/s${Number.isFinite(goal.maxP99) ? `, p99 ≤ ${goal.maxP99} ms` : ''}; ${connections} connections, ${seconds} s)`,
    );
    options.log(
      `${memoryMissed ? 'MISSED' : 'ok    '} server memory under the spread, ${label}: RSS at most ${result.maxRssMb.toFixed(0)} MB over the warm-up and the run${pglite ? ` (target ≤ ${MAX_PGLITE_RSS_MB} MB on PGlite)` : ' (no target on PostgreSQL)'}`,
    );
    const perRequest = (cpuSeconds: number) => Math.round((cpuSeconds * 1e6) / Math.max(1, result.requests));
    options.log(
      `       CPU per request: server ${perRequest(result.serverSeconds)} µs${options.databaseUrl ? `, PostgreSQL ${perRequest(result.databaseSeconds)} µs` : ' (PGlite included)'} (${result.serverSeconds.toFixed(1)} s and ${result.databaseSeconds.toFixed(1)} s over ${result.requests} requests); ` +
        // PGlite runs in the server's one JavaScript thread: one core; PostgreSQL and the server share two.
        `${pglite ? 'one idle core' : 'two idle cores'} would serve about ${Math.round(((pglite ? 1 : 2) * result.requests) / Math.max(0.001, result.serverSeconds + result.databaseSeconds))} req/s of it (CPU-bound estimate, load generator aside)`,
    );
    options.log(
      `       seed ${seed} after a ${warmupSeconds} s warm-up on seed ${seed + 1}: random page 1-2000, sorts ${SORTS.join('/')} asc/desc, 30 % q[customer_id], 10 % q[agency_name], 2 % PUT /api/categories/:id  [${command}]; machine load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
  };
  const cacheMb = process.env.LIST_CACHE_MB;
  const cached = await measure(server);
  report(
    cacheMb === '0'
      ? 'list cache off (LIST_CACHE_MB=0)'
      : `list cache on (LIST_CACHE_MB=${cacheMb ?? `${pglite ? 4 : 16}, the default on ${pglite ? 'PGlite' : 'PostgreSQL'}`})`,
    cached,
    cacheMb === '0' ? targets.uncached : targets.cached,
    options.command,
  );
  if (cacheMb !== '0') {
    // PGlite: one server per data directory at a time; the caller's stop of this one is then a no-op.
    if (pglite) await server.stop();
    const uncachedServer = await startBenchServer(target, { LIST_CACHE_MB: '0' });
    try {
      const uncached = await measure(uncachedServer);
      report('list cache off (a second server with LIST_CACHE_MB=0)', uncached, targets.uncached, `LIST_CACHE_MB=0 ${options.command}`);
    } finally {
      await uncachedServer.stop();
    }
  }
  return ok;
}
