import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import { loadConfig } from '../../src/server/config.js';
import { loadConfiguredEntities } from '../../src/server/plugins/entities.js';
import { toClientEntity } from '../../src/shared/descriptor/client-entity.js';
import { listUrl, readListParams } from '../../src/shared/list-request.js';
import { freePort } from '../helpers/free-port.js';
import { type BenchTarget, startBenchServer, startedWhenPrinting } from './bench-server.js';
import { type LoadResult, runLoad } from './load.js';

/** Issue 17: uncached page 1 with include and exact total ≥ 0.5× a bare Fastify + pg page without a total. */
export const BARE_RATIO_TARGET = 0.5;

/**
 * The floor of ../shared/anchors/scripts/fastify-pg-server.mjs, on the bench's own database: plain
 * Fastify 5 + pg (pool of 10, logger off), `GET /contests?page=&limit=` answering the page of
 * contests by `created_at desc` without a total, no authentication; ten columns as there (three
 * text columns of this schema for its title, description and notes). Run as its own process, as the
 * console's server is, so both meet the load generator alike.
 */
const BARE_SERVER = `
import Fastify from 'fastify';
import pg from 'pg';
const pool = new pg.Pool({ connectionString: process.env.BARE_DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
const COLS = 'id, campaign_id, customer_id, category_id, status, strategy, insight, creative_idea, created_at, updated_at';
app.get('/contests', async (req) => {
  const limit = Math.min(Math.max(parseInt(req.query.limit ?? '15', 10) || 15, 1), 100);
  const page = Math.max(parseInt(req.query.page ?? '1', 10) || 1, 1);
  const list = await pool.query(\`SELECT \${COLS} FROM contests ORDER BY created_at DESC LIMIT $1 OFFSET $2\`, [limit, (page - 1) * limit]);
  return { data: list.rows };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.BARE_PORT) });
console.log('bare server listening');
`;

async function startBareServer(databaseUrl: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', BARE_SERVER], {
    cwd: process.cwd(),
    env: { ...process.env, BARE_DATABASE_URL: databaseUrl, BARE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  await startedWhenPrinting(child, 'listening', 30_000, 'the bare server');
  return { base: `http://127.0.0.1:${port}`, stop };
}

/**
 * The URL of the first contests page as the console's list screen asks for it (the same code builds
 * it: page 1, the page size, the includes its relation columns show, and the fields it shows).
 */
function screenListPath(): string {
  const contest = loadConfiguredEntities(loadConfig({})).find((entity) => entity.descriptor.name === 'contest')!;
  const client = toClientEntity(contest, 'admin');
  return listUrl(client, readListParams(client, new URLSearchParams()));
}

/** Rounds of the comparison: the bare page and the console's, alternately (a machine whose speed drifts weighs on both alike). */
const ROUNDS = 2;

/**
 * `BENCH_CONTESTS=bare`: the console's uncached page 1 (a server with LIST_CACHE_MB=0; signed in;
 * include customer,category and the exact total) against the bare page, both servers up, measured
 * in turn ({@link ROUNDS} rounds, the ratio of the mean rates) with the same load (PostgreSQL only:
 * the bare server speaks pg). The target is on the request the list screen sends (the fields it
 * shows); the same page with every field of every record is printed beside it.
 */
export async function runBareComparison(options: {
  databaseUrl: string;
  connections?: number;
  seconds?: number;
  command: string;
  log: (line: string) => void;
}): Promise<boolean> {
  const target: BenchTarget = { kind: 'postgres', url: options.databaseUrl };
  const connections = options.connections ?? 10;
  const seconds = options.seconds ?? 10;
  const bare = await startBareServer(options.databaseUrl);
  const floors = [];
  const ours = [];
  let everyField: LoadResult;
  const screenPath = screenListPath();
  try {
    const server = await startBenchServer(target, { LIST_CACHE_MB: '0' });
    try {
      for (let round = 0; round < ROUNDS; round++) {
        floors.push(await runLoad(`${bare.base}/contests?page=1&limit=15`, {}, connections, seconds, 2));
        ours.push(await runLoad(`${server.base}${screenPath}`, server.headers, connections, seconds, 2));
      }
      everyField = await runLoad(`${server.base}/api/contests?page=1&per_page=15&include=customer%2Ccategory`, server.headers, connections, seconds, 2);
    } finally {
      await server.stop();
    }
  } finally {
    await bare.stop();
  }
  const mean = (results: Array<{ rps: number }>) => Math.round(results.reduce((sum, result) => sum + result.rps, 0) / results.length);
  const errors = (results: Array<{ errors: number }>) => results.reduce((sum, result) => sum + result.errors, 0);
  const floor = mean(floors);
  const ratio = mean(ours) / Math.max(1, floor);
  const ok = ratio >= BARE_RATIO_TARGET && errors(ours) === 0 && errors(floors) === 0;
  const rounds = (results: Array<{ rps: number; p99: number }>) => results.map((result) => `${result.rps} req/s (p99 ${result.p99} ms)`).join(', ');
  options.log(`       bare Fastify + pg page 1 without a total: ${rounds(floors)}; mean ${floor} req/s, ${errors(floors)} errors`);
  options.log(
    `       console, list cache off, page 1 as the list screen asks for it (${screenPath}): ${rounds(ours)}; mean ${mean(ours)} req/s, ${errors(ours)} errors`,
  );
  options.log(
    `       console, list cache off, page 1 with every field (include customer,category, no fields): ${everyField.rps} req/s, p99 ${everyField.p99} ms, ${everyField.errors} errors (${(everyField.rps / Math.max(1, floor)).toFixed(2)}× the bare page's mean)`,
  );
  options.log(
    `${ok ? 'ok    ' : 'MISSED'} uncached page 1 against the bare page: ${ratio.toFixed(2)}× (target ≥ ${BARE_RATIO_TARGET}×; ${connections} connections, ${seconds} s each, ${ROUNDS} rounds in turn)  [${options.command}]; machine load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  return ok;
}
