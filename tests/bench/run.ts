import '../../src/registry/server.js';
import os from 'node:os';
import path from 'node:path';
import { runCategoriesBench } from './categories.js';
import { runCompareBench } from './compare.js';
import { runContestBench } from './contests.js';
import { runDataioBench } from './dataio.js';
import { runImportSafetyBench } from './import-safety.js';
import { runMediaBench } from './media.js';
import { runNavigationBench } from './navigation.js';
import { runOutboxBench } from './outbox.js';
import type { BenchContext, BenchScenario } from './scenarios.js';
import { runSoak } from './soak.js';

/**
 * The scenario registry of `npm run bench`. Add a scenario here: a name, what it measures, and a
 * function that prints each figure with the command and the query plans.
 */
export const SCENARIOS: BenchScenario[] = [
  {
    name: 'categories',
    description: 'categories list p50/p99 at 10,000 rows (PGlite; PostgreSQL with BENCH_DATABASE_URL)',
    byDefault: true,
    run: runCategoriesBench,
  },
  {
    name: 'contests',
    description: 'contests list targets on a seeded database (BENCH_DATABASE_URL or BENCH_DATA_DIR)',
    byDefault: false,
    run: async (context) => {
      const dataDir = process.env.BENCH_DATA_DIR;
      if (!context.postgresUrl && !dataDir) {
        context.log('contests skipped: seed a bench database (npm run seed -- --contests 1000000) and set BENCH_DATABASE_URL or BENCH_DATA_DIR.');
        return true;
      }
      return runContestBench({
        databaseUrl: context.postgresUrl,
        dataDir,
        command: context.command,
        connections: context.connections,
        seconds: context.seconds,
        log: context.log,
      });
    },
  },
  {
    name: 'navigation',
    description:
      'cold navigation to the contests list → first row in headless Chromium (the seeded database when BENCH_DATABASE_URL or BENCH_DATA_DIR is set, else the demo data)',
    byDefault: true,
    run: runNavigationBench,
  },
  {
    name: 'compare',
    description:
      'cold navigation to the contests list and page 2 on the console and the anchor apps of ../shared/anchors (react-admin, headless Refine), interleaved, printing the ratios (ANCHORS_DIR, BENCH_COMPARE_RUNS)',
    byDefault: false,
    run: runCompareBench,
  },
  {
    name: 'soak',
    description:
      'soak: simulated admins (browse, filter, create, update with If-Match, delete) on PostgreSQL and PGlite, then kill -9 rounds on PGlite; SOAK_MINUTES (10), SOAK_ADMINS_PG (25), SOAK_ADMINS_PGLITE (10), SOAK_KILL_ROUNDS (50), SOAK_THINK_MS (200)',
    byDefault: false,
    run: runSoak,
  },
  {
    name: 'dataio',
    description: 'export of every contest as CSV (first byte, rows/s, server RSS growth) and import of 100,000 customers from CSV (BENCH_DATABASE_URL, seeded)',
    byDefault: false,
    run: runDataioBench,
  },
  {
    name: 'media',
    description: 'ten parallel 10 MB uploads (PDF, then PNG with its thumbnail) on PGlite: throughput MB/s and the server RSS',
    byDefault: false,
    run: runMediaBench,
  },
  {
    name: 'import-safety',
    description:
      'import safety (issue 29): the XLSX row bomb, the shared-string bomb and a 45 MB CSV against a running server: RSS growth, longest /api/health wait, time to refuse (BENCH_DATABASE_URL, else PGlite)',
    byDefault: false,
    run: runImportSafetyBench,
  },
  {
    name: 'outbox',
    description:
      'outbox (issue 27): 10,000 queued messages (BENCH_OUTBOX_MESSAGES) to a local SMTP sink: messages/s, the server RSS, and the API p99 with and beside the flood (BENCH_DATABASE_URL, else PGlite)',
    byDefault: false,
    run: runOutboxBench,
  },
];

const args = process.argv.slice(2);
if (args.includes('--help')) {
  process.stdout.write(
    `npm run bench [-- scenario...]\n${SCENARIOS.map((s) => `  ${s.name.padEnd(12)} ${s.description}${s.byDefault ? '' : ' (only when named)'}`).join('\n')}\n` +
      'Environment: BENCH_DATABASE_URL (or DATABASE_URL) PostgreSQL to fill; BENCH_DIR for PGlite data (default the system temp folder); BENCH_CONNECTIONS (10); BENCH_SECONDS (5).\n',
  );
  process.exit(0);
}
const unknown = args.filter((name) => !SCENARIOS.some((s) => s.name === name));
if (unknown.length) {
  process.stderr.write(`Unknown scenario: ${unknown.join(', ')}. Known: ${SCENARIOS.map((s) => s.name).join(', ')}.\n`);
  process.exit(2);
}
const chosen = args.length ? SCENARIOS.filter((s) => args.includes(s.name)) : SCENARIOS.filter((s) => s.byDefault);
const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
const redacted = postgresUrl ? postgresUrl.replace(/:[^:@/]*@/, ':***@') : undefined;
// The other settings that change a figure, repeated in the command printed with it.
const settings = [
  'BENCH_DATA_DIR',
  'BENCH_CONTESTS',
  'BENCH_SPREAD_WARMUP',
  'ANCHORS_DIR',
  'BENCH_COMPARE_RUNS',
  'FIRST_SCREEN_CACHE',
  'BENCH_SECONDS',
  'BENCH_CONNECTIONS',
  'LIST_CACHE_MB',
  'SOAK_MINUTES',
  'SOAK_ADMINS_PG',
  'SOAK_ADMINS_PGLITE',
  'SOAK_KILL_ROUNDS',
  'SOAK_THINK_MS',
  'BENCH_OUTBOX_MESSAGES',
]
  .filter((name) => process.env[name] !== undefined)
  .map((name) => `${name}=${process.env[name]} `)
  .join('');
const benchDir = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'awards-console-bench');
const context: BenchContext = {
  command: `${redacted ? `BENCH_DATABASE_URL=${redacted} ` : ''}${settings}npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`,
  log: (line) => process.stdout.write(`${line}\n`),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  postgresUrl,
  pgliteDir: (scenario) => path.join(benchDir, scenario),
};
let ok = true;
for (const scenario of chosen) {
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
  context.log(`== ${scenario.name}: ${scenario.description} (machine: ${os.cpus().length} cores, load average ${load})`);
  ok = (await scenario.run(context)) && ok;
}
process.exitCode = ok ? 0 : 1;
