import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExamSchedulerTick, tickSeconds } from '../../src/features/judging/server/exam-scheduler.js';
import { judgingDb } from '../../src/features/judging/server/tables.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { addCategory, CRITERIA } from '../helpers/judging-fixture.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const ahead = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/** Builds with `EXAM_SCHEDULER_SECONDS` set as a server's environment would (the scheduler reads it at start). */
async function withTickSeconds<T>(seconds: string, build: () => Promise<T>): Promise<T> {
  const before = process.env.EXAM_SCHEDULER_SECONDS;
  process.env.EXAM_SCHEDULER_SECONDS = seconds;
  try {
    return await build();
  } finally {
    if (before === undefined) delete process.env.EXAM_SCHEDULER_SECONDS;
    else process.env.EXAM_SCHEDULER_SECONDS = before;
  }
}

/** A second server on the first one's database: its own pool on PostgreSQL, the shared PGlite otherwise. */
async function secondServer(t: TestApp, tickSecondsText: string): Promise<FastifyInstance> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DATA: 'false', BACKUP_INTERVAL_HOURS: '0', ...t.database.env });
  return withTickSeconds(tickSecondsText, () =>
    buildApp(config, t.database.name === 'postgres' ? { logger: false } : { logger: false, database: t.app.database }),
  );
}

async function statusMoves(app: FastifyInstance, examId: number) {
  const { rows } = await sql<{ user_id: number | null; details: { from: string; to: string } }>`
    select user_id, details from audit_log where action = 'exam.status' and entity = 'exam' and entity_id = ${String(examId)} order by id`.execute(app.db);
  return rows.map((r) => ({ user: r.user_id, from: r.details.from, to: r.details.to }));
}

async function statusOf(app: FastifyInstance, examId: number): Promise<string> {
  const { rows } = await sql<{ status: string }>`select status from exams where id = ${examId}`.execute(app.db);
  return rows[0]!.status;
}

describe('EXAM_SCHEDULER_SECONDS', () => {
  it('defaults to 30 seconds, takes 0 as off and refuses anything but whole seconds', () => {
    expect(tickSeconds({})).toBe(30);
    expect(tickSeconds({ EXAM_SCHEDULER_SECONDS: '0' })).toBe(0);
    expect(tickSeconds({ EXAM_SCHEDULER_SECONDS: '5' })).toBe(5);
    expect(() => tickSeconds({ EXAM_SCHEDULER_SECONDS: '1.5' })).toThrow(/whole number/);
  });
});

describe.each(testDatabaseKinds())('exam scheduler on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let other: FastifyInstance;
  let n = 0;

  const exam = async (body: Record<string, unknown>) => {
    n += 1;
    const category = await addCategory(t.app, `Scheduled ${n}`);
    const res = await admin.post('/api/exams', { name: `Scheduled exam ${n}`, category_id: category, round: 1, max_score: 100, criteria: CRITERIA, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  };

  beforeAll(async () => {
    // The timers off: each test drives the ticks (the last one turns a timer on in a pair of its own).
    ({ t, client: admin } = await withTickSeconds('0', () => startSignedInApp(kind)));
    other = await secondServer(t, '0');
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('stores dates typed in any zone as UTC instants and refuses a closing date not after the opening date (422 on closes_at)', async () => {
    const id = await exam({ opens_at: '2030-01-10T10:00:00+07:00', closes_at: '2030-01-20T10:00:00+07:00' });
    const read = await admin.get(`/api/exams/${id}`);
    expect(new Date(read.body.data.opens_at).toISOString()).toBe('2030-01-10T03:00:00.000Z');
    const { name, category_id, round, max_score, criteria, opens_at } = read.body.data;
    const body = { name, category_id, round, max_score, criteria, opens_at };
    const same = await admin.put(`/api/exams/${id}`, { ...body, closes_at: opens_at });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual([expect.objectContaining({ path: 'closes_at', messageKey: 'judging.errors.closes_before_opens' })]);
    expect(same.body.message).toBe('The closing date (closes_at) must be after the opening date (opens_at).');
    const before = await admin.put(`/api/exams/${id}`, { ...body, closes_at: '2030-01-01T00:00:00Z' });
    expect(before.status).toBe(422);
    expect((await admin.put(`/api/exams/${id}`, { ...body, closes_at: '2030-01-10T03:00:01Z' })).status).toBe(200);
  });

  it('opens a due draft and closes a due open exam once, with two servers ticking at the same moment (one audit row each, by the system)', async () => {
    const opening = await exam({ opens_at: ago(60), closes_at: ahead(3600) });
    const closing = await exam({ opens_at: ago(7200), closes_at: ahead(3600) });
    expect((await admin.post(`/api/exams/${closing}/status`, { status: 'open' })).status).toBe(200);
    await sql`update exams set closes_at = now() - interval '1 second' where id = ${closing}`.execute(t.app.db);
    const notYet = await exam({ opens_at: ahead(3600), closes_at: ahead(7200) });
    const noCriteria = await exam({ opens_at: ago(60), criteria: [] });

    const results = await Promise.all([
      runExamSchedulerTick(judgingDb(t.app.db), t.app.entities, { holder: 'server-a', leaseMs: 60_000 }),
      runExamSchedulerTick(judgingDb(other.db), other.entities, { holder: 'server-b', leaseMs: 60_000 }),
    ]);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    const moves = results.flatMap((r) => r.moves);
    expect(moves).toEqual(
      expect.arrayContaining([
        { examId: opening, from: 'draft', to: 'open' },
        { examId: closing, from: 'open', to: 'closed' },
        expect.objectContaining({ examId: noCriteria, from: 'draft', to: 'open', refused: expect.any(String) }),
      ]),
    );
    expect(await statusOf(t.app, opening)).toBe('open');
    expect(await statusOf(t.app, closing)).toBe('closed');
    expect(await statusOf(t.app, notYet)).toBe('draft');
    expect(await statusOf(t.app, noCriteria)).toBe('draft');
    expect(await statusMoves(t.app, opening)).toEqual([{ user: null, from: 'draft', to: 'open' }]);
    expect((await statusMoves(t.app, closing)).at(-1)).toEqual({ user: null, from: 'open', to: 'closed' });
    expect(await statusMoves(t.app, noCriteria)).toEqual([]);

    // The lease is held: neither server runs again before it ends; once it has, the next tick finds nothing due.
    const again = await runExamSchedulerTick(judgingDb(other.db), other.entities, { holder: 'server-b', leaseMs: 60_000 });
    expect(again.ran).toBe(false);
    await sql`update judging_leases set lease_until = now() - interval '1 second'`.execute(t.app.db);
    const later = await runExamSchedulerTick(judgingDb(other.db), other.entities, { holder: 'server-b', leaseMs: 60_000 });
    expect(later.ran).toBe(true);
    expect(later.moves.filter((m) => !m.refused)).toEqual([]);
    expect(await statusMoves(t.app, opening)).toHaveLength(1);
  });

  it('runs on its timer in two servers and moves a due exam exactly once; closing the servers stops it', async () => {
    const due = await exam({ opens_at: ago(5), closes_at: ahead(3600) });
    await sql`update judging_leases set lease_until = now() - interval '1 second'`.execute(t.app.db);
    const a = await secondServer(t, '1');
    const b = await secondServer(t, '1');
    try {
      const deadline = Date.now() + 10_000;
      while ((await statusOf(t.app, due)) !== 'open' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      // Two more ticks of both servers: nothing moves again.
      await new Promise((r) => setTimeout(r, 2_500));
    } finally {
      await a.close();
      await b.close();
    }
    expect(await statusOf(t.app, due)).toBe('open');
    expect(await statusMoves(t.app, due)).toEqual([{ user: null, from: 'draft', to: 'open' }]);
  });
});
