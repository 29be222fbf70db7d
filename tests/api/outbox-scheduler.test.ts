import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { registerScheduledJob } from '../../src/server/scheduler/scheduler.js';
import { createTestDatabase, type TestDatabase, testDatabaseKinds } from '../helpers/databases.js';
import { withEnv } from '../helpers/smtp-sink.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/test-app.js';

/** One run of a test job: from when to when (ms). */
interface Run {
  start: number;
  end: number;
}

const runs: { often: Run[]; daily: Run[]; later: Run[] } = { often: [], daily: [], later: [] };
let slowMs = 0;
const record = (name: keyof typeof runs) => async () => {
  const run = { start: Date.now(), end: 0 };
  if (slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
  run.end = Date.now();
  runs[name].push(run);
};
// Registered before any app is built, as features do. Off unless the test turns them on.
const enabled = { often: 0, daily: 0, later: 0 };
registerScheduledJob({ name: 'test-later', everySeconds: () => enabled.later, run: record('later') });
registerScheduledJob({ name: 'test-often', everySeconds: () => enabled.often, run: record('often') });
registerScheduledJob({ name: 'test-daily', everySeconds: () => enabled.daily, run: record('daily') });

describe.each(testDatabaseKinds())('the one scheduler on %s', (kind) => {
  const apps: FastifyInstance[] = [];
  const databases: TestDatabase[] = [];
  const dirs: string[] = [];
  const QUIET = { EXAM_SCHEDULER_SECONDS: '0', DEADLINE_REMINDER_SECONDS: '0' };
  const configOf = (env: Record<string, string>) =>
    loadConfig({ ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DATA: 'false', BACKUP_INTERVAL_HOURS: '0', LOG_LEVEL: 'silent', ...env });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    for (const database of databases) await database.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a job on one server at a time among several, each run once', { timeout: 180_000 }, async () => {
    const database = await createTestDatabase(kind);
    databases.push(database);
    runs.often = [];
    enabled.often = 1;
    slowMs = 300;
    try {
      // Several servers on one database (PGlite: one shared instance, as a second server cannot open it).
      const first = await withEnv(QUIET, () => buildApp(configOf(database.env), { logger: false }));
      const others = await Promise.all(
        (kind === 'postgres' ? [1, 2] : [1]).map(() =>
          withEnv(QUIET, () => buildApp(configOf(database.env), kind === 'postgres' ? { logger: false } : { logger: false, database: first.database })),
        ),
      );
      apps.push(first, ...others);
      await expect.poll(() => runs.often.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
      enabled.often = 0;
      const row = await sql<{ last_finished_at: Date | null; last_error: string | null }>`
        select last_finished_at, last_error from scheduler_jobs where name = 'test-often'`.execute(first.db);
      expect(row.rows[0]).toMatchObject({ last_error: null, last_finished_at: expect.any(Date) });
    } finally {
      enabled.often = 0;
      for (const app of apps.splice(0).reverse()) await app.close();
    }
    // Never two runs at once: each started after the previous one ended.
    const sorted = [...runs.often].sort((x, y) => x.start - y.start);
    for (let i = 1; i < sorted.length; i += 1) expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
  });

  it('catches up after a restart: a job due while the servers were down runs at start, one not due does not', { timeout: 180_000 }, async () => {
    slowMs = 0;
    runs.daily = [];
    runs.later = [];
    let env: Record<string, string>;
    if (kind === 'pglite') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-scheduler-'));
      dirs.push(dir);
      env = { DATA_DIR: dir };
    } else {
      const database = await createTestDatabase(kind);
      databases.push(database);
      env = database.env;
    }
    enabled.daily = 86_400;
    enabled.later = 86_400;
    try {
      // The first start runs both (they never ran) at its first tick, its only one (an hour's tick).
      const first = await withEnv({ ...QUIET, SCHEDULER_TICK_SECONDS: '3600' }, () => buildApp(configOf(env), { logger: false }));
      await expect.poll(() => runs.daily.length + runs.later.length, { timeout: 30_000 }).toBe(2);
      // Then the server is down for a while: the daily job's time passed (it last started 25 hours
      // ago), the other's did not.
      await sql`update scheduler_jobs set last_run_at = now() - interval '25 hours' where name = 'test-daily'`.execute(first.db);
      await sql`update scheduler_jobs set last_run_at = now() - interval '1 hour' where name = 'test-later'`.execute(first.db);
      await first.close();
      expect(runs.daily).toHaveLength(1);
      apps.push(await withEnv(QUIET, () => buildApp(configOf(env), { logger: false })));
      await expect.poll(() => runs.daily.length, { timeout: 30_000 }).toBe(2);
      // `test-later` is registered first, so the tick that ran the daily job had already passed it by.
      expect(runs.later).toHaveLength(1);
    } finally {
      enabled.daily = 0;
      enabled.later = 0;
    }
  });
});
