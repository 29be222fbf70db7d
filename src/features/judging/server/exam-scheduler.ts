import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { AppError, type EntityRegistry } from '../../../server/index.js';
import { moveExamStatus } from './exams.service.js';
import type { Actor } from './judging-audit.js';
import { type JudgingDb, judgingDb } from './tables.js';

/** The lease's name in `judging_leases`. */
export const EXAM_STATUS_LEASE = 'exam-status';
/** Seconds between ticks unless `EXAM_SCHEDULER_SECONDS` says otherwise (0 turns the scheduler off). */
export const DEFAULT_TICK_SECONDS = 30;
/** The system acts: no user, no address (the audit row's user is empty). */
const SYSTEM: Actor = { userId: null, ip: null };

/** One status move a tick made (or tried). */
export interface ScheduledMove {
  examId: number;
  from: string;
  to: string;
  /** Why the move was refused (an exam without criteria stays a draft), when it was. */
  refused?: string;
}

/** What one tick did: whether this server held the lease, and the moves it made. */
export interface TickResult {
  ran: boolean;
  moves: ScheduledMove[];
}

/**
 * Takes the lease for `leaseMs` when it is free (its `lease_until` has passed; a first tick creates
 * the row), in one statement, so of several servers ticking at once exactly one gets it.
 */
export async function takeLease(db: JudgingDb, holder: string, leaseMs: number, name = EXAM_STATUS_LEASE): Promise<boolean> {
  const until = sql`now() + make_interval(secs => ${leaseMs / 1000})`;
  const { rows } = await sql<{ holder: string }>`
    insert into judging_leases (name, holder, lease_until, last_run_at) values (${name}, ${holder}, ${until}, now())
    on conflict (name) do update set holder = excluded.holder, lease_until = excluded.lease_until, last_run_at = now()
      where judging_leases.lease_until < now()
    returning holder`.execute(db);
  return rows.length === 1;
}

/**
 * One tick of the exam scheduler: when this server takes the lease, every draft exam whose
 * `opens_at` has come (and whose `closes_at` has not) opens, and every open exam whose `closes_at`
 * has come closes, each through {@link moveExamStatus}: the same rules as a person's move (an exam
 * without criteria does not open), audited with no user (the system). Times are the database's.
 */
export async function runExamSchedulerTick(db: JudgingDb, registry: EntityRegistry, options: { holder: string; leaseMs: number }): Promise<TickResult> {
  if (!(await takeLease(db, options.holder, options.leaseMs))) return { ran: false, moves: [] };
  const { rows: due } = await sql<{ id: number; status: string; to: string }>`
    select id, status, case when status = 'draft' then 'open' else 'closed' end as "to" from exams
    where (status = 'draft' and opens_at <= now() and (closes_at is null or closes_at > now()))
       or (status = 'open' and closes_at <= now())
    order by id`.execute(db);
  const moves: ScheduledMove[] = [];
  for (const exam of due) {
    try {
      await moveExamStatus(db, registry, exam.id, exam.to, SYSTEM);
      moves.push({ examId: exam.id, from: exam.status, to: exam.to });
    } catch (error) {
      // A refused move (no criteria yet, or a person moved it first) is left for a person or a later tick.
      if (!(error instanceof AppError)) throw error;
      moves.push({ examId: exam.id, from: exam.status, to: exam.to, refused: error.message });
    }
  }
  return { ran: true, moves };
}

/** `EXAM_SCHEDULER_SECONDS` as a whole number of seconds (0: off), else the default. */
export function tickSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env.EXAM_SCHEDULER_SECONDS?.trim();
  if (!raw) return DEFAULT_TICK_SECONDS;
  if (!/^\d+$/.test(raw)) throw new Error(`EXAM_SCHEDULER_SECONDS must be a whole number of seconds (0 turns the scheduler off); got "${raw}".`);
  return Number(raw);
}

/**
 * The exam scheduler as a setup plugin: a tick every `EXAM_SCHEDULER_SECONDS` (default 30; 0 turns it
 * off), the lease held for one interval so any one of several servers runs each tick. Closing the app
 * stops the timer and waits for a running tick before the database closes. A failed tick is logged;
 * the next one tries again.
 */
export const examSchedulerPlugin = fp(
  async function examSchedulerPlugin(app: FastifyInstance) {
    const seconds = tickSeconds();
    if (seconds <= 0) return;
    const db = judgingDb(app.db);
    const holder = randomUUID();
    let running: Promise<void> | undefined;
    const tick = () => {
      if (running) return;
      running = runExamSchedulerTick(db, app.entities, { holder, leaseMs: seconds * 1000 })
        .then((result) => {
          for (const move of result.moves) app.log.info({ exam: move.examId, from: move.from, to: move.to, refused: move.refused }, 'exam scheduler move');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'exam scheduler tick failed'))
        .finally(() => {
          running = undefined;
        });
    };
    const timer = setInterval(tick, seconds * 1000);
    timer.unref();
    app.addHook('preClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'judging-exam-scheduler' },
);
