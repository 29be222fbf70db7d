import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';

/**
 * A job the server runs on a timer (exams opening and closing, deadline reminders). Of several
 * servers on one database exactly one runs each of its runs (see {@link claimJob}).
 */
export interface ScheduledJob {
  /** Unique across the app (`judging-exam-status`); the row's name in `scheduler_jobs`. */
  name: string;
  /**
   * Seconds between runs; a function is read when the server starts (an environment knob).
   * 0 or less turns the job off on this server.
   */
  everySeconds: number | (() => number);
  /** One run. A throw is logged and kept as the job's `last_error`; the job runs again at its next time. */
  run(app: FastifyInstance): Promise<unknown>;
}

const jobs = new Map<string, ScheduledJob>();

/**
 * Registers a job with the one scheduler (before `buildApp`; a feature may list it in
 * `ServerFeature.jobs` instead). The same job registered again is ignored; another job under a
 * taken name is an error.
 *
 * @example registerScheduledJob({ name: 'judging-deadline-reminders', everySeconds: 600, run: (app) => sendDueReminders(app) });
 */
export function registerScheduledJob(job: ScheduledJob): void {
  const existing = jobs.get(job.name);
  if (existing === job) return;
  if (existing) throw new Error(`The scheduled job "${job.name}" is registered twice.`);
  jobs.set(job.name, job);
}

/** Every registered job, in registration order. */
export function registeredScheduledJobs(): readonly ScheduledJob[] {
  return [...jobs.values()];
}

/** Longest wait between two ticks of a server's scheduler, whatever its jobs' intervals. */
export const MAX_TICK_SECONDS = 30;

/** A job's interval in whole seconds as this server reads it (0: off). */
export function intervalOf(job: ScheduledJob): number {
  const seconds = typeof job.everySeconds === 'function' ? job.everySeconds() : job.everySeconds;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/**
 * Seconds between a server's ticks: `SCHEDULER_TICK_SECONDS` when set, else its shortest job
 * interval, at most {@link MAX_TICK_SECONDS} (a job due while the servers were down runs within one tick).
 */
export function schedulerTickSeconds(intervals: readonly number[], env: Record<string, string | undefined> = process.env): number {
  const raw = env.SCHEDULER_TICK_SECONDS?.trim();
  if (raw) {
    if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0) throw new Error(`SCHEDULER_TICK_SECONDS must be a positive number of seconds; got "${raw}".`);
    return Number(raw);
  }
  return Math.min(MAX_TICK_SECONDS, ...intervals.filter((s) => s > 0));
}

/**
 * Claims one run of a job for `holder`, in one statement: the job is due (it last started at least
 * `everySeconds` ago, or never did) and no server holds a run of it (`lease_until` passed). Of
 * several servers claiming at once exactly one gets it. The claim is held for `leaseSeconds`: a
 * server that dies mid-run frees the job when it ends.
 */
export async function claimJob(db: Kysely<any>, name: string, holder: string, everySeconds: number, leaseSeconds: number): Promise<boolean> {
  const until = sql`now() + make_interval(secs => ${leaseSeconds})`;
  const { rows } = await sql<{ name: string }>`
    insert into scheduler_jobs (name, holder, lease_until, last_run_at) values (${name}, ${holder}, ${until}, now())
    on conflict (name) do update set holder = excluded.holder, lease_until = excluded.lease_until, last_run_at = now()
      where scheduler_jobs.lease_until < now() and scheduler_jobs.last_run_at <= now() - make_interval(secs => ${everySeconds})
    returning name`.execute(db);
  return rows.length === 1;
}

/** Ends a claimed run: the lease freed, the finish time and the error (null on success) kept. */
async function finishJob(db: Kysely<any>, name: string, holder: string, error: string | null): Promise<void> {
  await sql`update scheduler_jobs set lease_until = now(), last_finished_at = now(), last_error = ${error}
    where name = ${name} and holder = ${holder}`.execute(db);
}

/** What one tick did on one server: the jobs it ran and the ones that failed. */
export interface SchedulerTick {
  ran: string[];
  failed: string[];
}

/**
 * One tick of a server's scheduler: each enabled job this server claims (due and free) runs, one
 * after the other. A job's lease is its interval (at least a minute), so a long run is not
 * started twice and a dead server's job is free again after it.
 */
export async function runSchedulerTick(
  app: FastifyInstance,
  holder: string,
  enabled: ReadonlyArray<{ job: ScheduledJob; every: number }>,
): Promise<SchedulerTick> {
  const result: SchedulerTick = { ran: [], failed: [] };
  for (const { job, every } of enabled) {
    if (!(await claimJob(app.db, job.name, holder, every, Math.max(60, every)))) continue;
    let error: string | null = null;
    try {
      await job.run(app);
      result.ran.push(job.name);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      result.failed.push(job.name);
      app.log.error({ err: caught, job: job.name }, 'scheduled job failed');
    }
    await finishJob(app.db, job.name, holder, error?.slice(0, 2000) ?? null);
  }
  return result;
}

/**
 * The one scheduler, as a plugin registered after the features' setup: every registered job this
 * server has on (its interval above 0) gets a chance at each tick, the first tick right after the
 * server is ready (a job due while the servers were down catches up then). Closing the app stops the
 * timer and waits for a running tick before the database closes. `SCHEDULER=off` turns it off.
 */
export const schedulerPlugin = fp(
  async function schedulerPlugin(app: FastifyInstance) {
    if (process.env.SCHEDULER?.trim().toLowerCase() === 'off') return;
    const enabled = registeredScheduledJobs()
      .map((job) => ({ job, every: intervalOf(job) }))
      .filter((entry) => entry.every > 0);
    if (enabled.length === 0) return;
    const seconds = schedulerTickSeconds(enabled.map((entry) => entry.every));
    const holder = randomUUID();
    let running: Promise<void> | undefined;
    let closing = false;
    const tick = () => {
      if (running || closing) return;
      running = runSchedulerTick(app, holder, enabled)
        .then((result) => {
          if (result.ran.length > 0) app.log.debug({ jobs: result.ran }, 'scheduled jobs ran');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'scheduler tick failed'))
        .finally(() => {
          running = undefined;
        });
    };
    const timer = setInterval(tick, seconds * 1000);
    timer.unref();
    app.addHook('onReady', async () => {
      tick();
    });
    app.addHook('preClose', async () => {
      closing = true;
      clearInterval(timer);
      await running;
    });
  },
  { name: 'scheduler' },
);
