import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../../src/features/notifications/server/outbox-mailer.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createTestDatabase, postgresUrl, type TestDatabase, testDatabaseKinds } from '../helpers/databases.js';
import { freePort } from '../helpers/free-port.js';
import { SmtpSink, withEnv } from '../helpers/smtp-sink.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/test-app.js';

const MAIN = path.resolve('dist/server/main.js');
const CONCURRENCY = 4;
const WORKER_ENV = {
  OUTBOX_POLL_MS: '100',
  OUTBOX_BATCH: '20',
  OUTBOX_CONCURRENCY: String(CONCURRENCY),
  OUTBOX_CLAIM_SECONDS: '2',
  OUTBOX_RETRY_BASE_SECONDS: '0.3',
  OUTBOX_RETRY_MAX_SECONDS: '1',
};
const BASE_ENV = {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DEMO_DATA: 'false',
  BACKUP_INTERVAL_HOURS: '0',
  FIRST_SCREEN_AT_START: 'false',
  LOG_LEVEL: 'silent',
  MAIL_FROM: 'awards@example.org',
};

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Writes `count` templated messages to the outbox of the database `env` names (the app built, used and closed); answers their Message-IDs. */
async function queueMessages(env: Record<string, string>, count: number): Promise<string[]> {
  const app = await buildApp(loadConfig({ ...BASE_ENV, ...env }), { logger: false });
  try {
    for (let i = 0; i < count; i += 1) {
      await enqueueMail(
        app.db,
        {
          to: `crash${i}@example.com`,
          language: (['en', 'id', 'ms'] as const)[i % 3]!,
          template: 'passwordReset',
          vars: { name: `C${i}`, minutes: 60 },
          link: `https://x.example/r?token=c${i}`,
        },
        'example.org',
      );
    }
    const { rows } = await sql<{ message_id: string }>`select message_id from notification_outbox order by id`.execute(app.db);
    return rows.map((r) => r.message_id);
  } finally {
    await app.close();
  }
}

/** Signs in to the running server as its admin; answers a reader of the outbox's counts by status (`GET /api/outbox`). */
async function outboxCounts(base: string): Promise<() => Promise<Record<string, number>>> {
  const health = await fetch(`${base}/api/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const headers = { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers, body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
  const { token } = (await login.json()) as { token: string };
  return async () => {
    const res = await fetch(`${base}/api/outbox?per_page=1`, { headers: { ...headers, authorization: `Bearer ${token}` } });
    return ((await res.json()) as { meta: { counts: Record<string, number> } }).meta.counts;
  };
}

/** `node dist/server/main.js` with `env`, resolved once it answers /api/health. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; exit: Promise<unknown>; output: () => string; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, ...BASE_ENV, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exit = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited before it was ready:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The server did not start within 120 s:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, exit, output: () => output, base: `http://127.0.0.1:${port}` };
}

/** The database env of a kind: PGlite in a data folder of its own, or a fresh PostgreSQL database. */
async function databaseEnv(kind: 'pglite' | 'postgres'): Promise<Record<string, string>> {
  if (kind === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-outbox-crash-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return { DATA_DIR: dir };
  }
  const database = await createTestDatabase('postgres');
  cleanups.push(() => database.drop());
  return database.env;
}

describe.each(testDatabaseKinds())('outbox on %s: a kill -9 of the sending server mid-batch', (kind) => {
  it('loses nothing and sends nothing twice under one Message-ID (at most the messages in flight reach the SMTP server again)', {
    timeout: 300_000,
  }, async () => {
    if (!fs.existsSync(MAIN)) throw new Error('dist/server/main.js is missing: run "node build.mjs" first.');
    const total = 200;
    const db = await databaseEnv(kind);
    const expected = await queueMessages(db, total);
    expect(new Set(expected).size).toBe(total);

    // A slow SMTP server, so the kill lands in the middle of a batch.
    const sink = await SmtpSink.start({ delayMs: 15, keep: false });
    cleanups.push(() => sink.close());
    const env = { ...db, ...WORKER_ENV, SMTP_URL: sink.url };
    const first = await startServer(env);
    await sink.waitFor(() => sink.messages.length >= 40, 'the first messages', 60_000);
    first.child.kill('SIGKILL');
    await first.exit;
    const atKill = sink.messages.length;
    expect(atKill).toBeLessThan(total);

    // The restart (after its claims ran out) sends the rest, the unmarked ones again with their Message-ID.
    const second = await startServer(env);
    await sink.waitFor(() => sink.countsByMessageId().size >= total, 'every message after the restart', 120_000);
    const counts = await outboxCounts(second.base);
    await expect.poll(async () => (await counts()).sent, { timeout: 30_000, interval: 250 }).toBe(total);
    second.child.kill('SIGTERM');
    await second.exit;

    const received = sink.countsByMessageId();
    expect([...received.keys()].sort()).toEqual([...expected].sort());
    const resent = [...received.values()].filter((n) => n > 1);
    // Only what was between "accepted by SMTP" and "marked sent" at the kill: one per lane at most, each once more.
    expect(resent.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(resent.every((n) => n === 2)).toBe(true);
    process.stdout.write(
      `outbox kill -9 on ${kind}: ${atKill} received before the kill, ${resent.length} resent under the same Message-ID, ${total} distinct\n`,
    );
  });
});

describe.runIf(postgresUrl)('outbox: two servers on one PostgreSQL', () => {
  let database: TestDatabase | undefined;
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
  });

  it('send each message once between them (FOR UPDATE SKIP LOCKED), both taking a share', { timeout: 120_000 }, async () => {
    database = await createTestDatabase('postgres');
    const sink = await SmtpSink.start({ delayMs: 2, keep: false });
    cleanups.push(() => sink.close());
    const config = loadConfig({ ...BASE_ENV, ...database.env, SMTP_URL: sink.url });
    for (let i = 0; i < 2; i += 1)
      apps.push(await withEnv({ ...WORKER_ENV, OUTBOX_BATCH: '10', OUTBOX_CLAIM_SECONDS: '30' }, () => buildApp(config, { logger: false })));
    const total = 300;
    const [a] = apps as [FastifyInstance];
    await a.db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i += 1) {
        await a.mailer.send(
          {
            to: `pair${i}@example.com`,
            language: 'en',
            template: 'passwordReset',
            vars: { name: `P${i}`, minutes: 60 },
            link: `https://x.example/r?token=p${i}`,
          },
          { db: trx },
        );
      }
    });
    await sink.waitFor(() => sink.messages.length >= total, 'every message', 90_000);
    await expect
      .poll(async () => Number((await sql<{ n: number }>`select count(*) as n from notification_outbox where status = 'sent'`.execute(a.db)).rows[0]!.n))
      .toBe(total);
    const counts = sink.countsByMessageId();
    expect(counts.size).toBe(total);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(sink.messages.length).toBe(total);
    const senders = await sql<{ claimed_by: string; n: number }>`select claimed_by, count(*) as n from notification_outbox group by claimed_by`.execute(a.db);
    expect(senders.rows).toHaveLength(2);
    process.stdout.write(`outbox two servers: ${senders.rows.map((r) => r.n).join(' + ')} messages\n`);
  });
});
