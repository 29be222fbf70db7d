import { runContestBench } from './contests.js';

/**
 * The contests benchmark on its own: `BENCH_DATABASE_URL=postgres://... node dist/server/bench-contests.js`
 * (PostgreSQL, seeded with `npm run seed -- --contests 1000000`), or with `BENCH_DATA_DIR=<dir>` for
 * PGlite (seeded with `DATA_DIR=<dir> npm run seed -- --contests 100000`). Exit code 1 when a target is missed.
 */
const databaseUrl = process.env.BENCH_DATABASE_URL;
const dataDir = process.env.BENCH_DATA_DIR;
if (!databaseUrl && !dataDir) {
  process.stderr.write('Set BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (PGlite) to a seeded bench database; never the tests\' database.\n');
  process.exit(2);
}
const command = `${databaseUrl ? `BENCH_DATABASE_URL=${databaseUrl.replace(/:[^:@/]*@/, ':***@')}` : `BENCH_DATA_DIR=${dataDir}`} ${process.argv.slice(1).map((a) => a.replace(process.cwd() + '/', '')).join(' ')}`;
const ok = await runContestBench({ databaseUrl, dataDir, command, seconds: Number(process.env.BENCH_SECONDS ?? 10), log: (line) => process.stdout.write(`${line}\n`) });
process.exitCode = ok ? 0 : 1;
