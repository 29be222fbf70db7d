import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { AppError, type EntityRegistry, type ScheduledJob } from '../../../server/index.js';
import { moveExamStatus } from './exams.service.js';
import type { Actor } from './judging-audit.js';
import type { JudgingMail } from './judging-mail.js';
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
 * With `options.mail`, an exam that opens tells its jurors (as a person's move does).
 */
export async function runExamSchedulerTick(
  db: JudgingDb,
  registry: EntityRegistry,
  options: { holder: string; leaseMs: number; mail?: JudgingMail },
): Promise<TickResult> {
  if (!(await takeLease(db, options.holder, options.leaseMs))) return { ran: false, moves: [] };
  return { ran: true, moves: await moveDueExams(db, registry, options.mail) };
}

/**
 * Every draft exam whose `opens_at` has come (and whose `closes_at` has not) opens, and every open
 * exam whose `closes_at` has come closes, each through {@link moveExamStatus}: the same rules as a
 * person's move, audited with no user (the system). Times are the database's. With `mail`, an
 * exam that opens tells its jurors. The scheduler's `judging-exam-status` job runs it (one server per run).
 */
export async function moveDueExams(db: JudgingDb, registry: EntityRegistry, mail?: JudgingMail): Promise<ScheduledMove[]> {
  const { rows: due } = await sql<{ id: number; status: string; to: string }>`
    select id, status, case when status = 'draft' then 'open' else 'closed' end as "to" from exams
    where (status = 'draft' and opens_at <= now() and (closes_at is null or closes_at > now()))
       or (status = 'open' and closes_at <= now())
    order by id`.execute(db);
  const moves: ScheduledMove[] = [];
  for (const exam of due) {
    try {
      await moveExamStatus(db, registry, exam.id, exam.to, SYSTEM, mail);
      moves.push({ examId: exam.id, from: exam.status, to: exam.to });
    } catch (error) {
      // A refused move (no criteria yet, or a person moved it first) is left for a person or a later tick.
      if (!(error instanceof AppError)) throw error;
      moves.push({ examId: exam.id, from: exam.status, to: exam.to, refused: error.message });
    }
  }
  return moves;
}

/** `EXAM_SCHEDULER_SECONDS` as a whole number of seconds (0: off), else the default. */
export function tickSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env.EXAM_SCHEDULER_SECONDS?.trim();
  if (!raw) return DEFAULT_TICK_SECONDS;
  if (!/^\d+$/.test(raw)) throw new Error(`EXAM_SCHEDULER_SECONDS must be a whole number of seconds (0 turns the scheduler off); got "${raw}".`);
  return Number(raw);
}

/**
 * Exams open and close by themselves, on the server's one scheduler (`registerScheduledJob`): every
 * `EXAM_SCHEDULER_SECONDS` (default 30; 0 turns it off on this server), one server per run, a run
 * missed while the servers were down made at the first tick after a start. Moves are logged.
 */
export const examStatusJob: ScheduledJob = {
  name: 'judging-exam-status',
  everySeconds: () => tickSeconds(),
  async run(app: FastifyInstance) {
    const moves = await moveDueExams(judgingDb(app.db), app.entities, { mailer: app.mailer, publicUrl: app.config.publicUrl });
    for (const move of moves) app.log.info({ exam: move.examId, from: move.from, to: move.to, refused: move.refused }, 'exam scheduler move');
    return moves;
  },
};
