import fs from 'node:fs';
import { sql } from 'kysely';
import { enqueueMail } from '../../src/features/notifications/server/outbox-mailer.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { SmtpSink } from '../helpers/smtp-sink.js';
import { type BenchTarget, benchEnv, rssMb, startBenchServer } from './bench-server.js';
import { type LoadResult, runLoad } from './load.js';
import type { BenchContext } from './scenarios.js';

const MESSAGES = Number(process.env.BENCH_OUTBOX_MESSAGES ?? 10_000);
/** The API request measured beside the flood: the first page of a list. */
const API_PATH = '/api/categories?page=1&per_page=25';

/** Writes `count` messages to the target's outbox in one transaction (the server stopped). */
async function queue(target: BenchTarget, count: number): Promise<void> {
  const app = await buildApp(loadConfig({ ...benchEnv(target), LOG_LEVEL: 'silent' }), { logger: false });
  try {
    await sql`delete from notification_outbox`.execute(app.db);
    await app.db.transaction().execute(async (trx) => {
      for (let i = 0; i < count; i += 1) {
        await enqueueMail(
          trx,
          {
            to: `bench${i}@example.com`,
            language: (['en', 'id', 'ms'] as const)[i % 3]!,
            template: 'passwordReset',
            vars: { name: `Bench ${i}`, minutes: 60 },
            link: `https://awards.example.org/reset-password?token=bench${i}`,
          },
          'example.org',
        );
      }
    });
  } finally {
    await app.close();
  }
}

const describeLoad = (r: LoadResult) => `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.rps.toFixed(0)} req/s, ${r.errors} errors`;

/**
 * `npm run bench -- outbox`: 10,000 queued messages (BENCH_OUTBOX_MESSAGES) sent by a real server
 * (`dist/server/main.js`, PGlite in a fresh folder, or BENCH_DATABASE_URL) to a local SMTP sink
 * (the `smtp-server` package, in this process): messages per second (first to last message the
 * sink accepted), the server's RSS (idle, peak while sending), and the API's p50/p99 on a list
 * page measured with the worker off, then beside the flood. Every Message-ID is counted once.
 */
export async function runOutboxBench(context: BenchContext): Promise<boolean> {
  let target: BenchTarget;
  if (context.postgresUrl) target = { kind: 'postgres', url: context.postgresUrl };
  else {
    const dataDir = context.pgliteDir('outbox');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    target = { kind: 'pglite', dataDir };
  }
  const sink = await SmtpSink.start({ keep: false });
  const where = target.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  try {
    // The baseline: the same server, the same database, nothing being sent.
    const first = await startBenchServer(target);
    try {
      const quiet = await runLoad(`${first.base}${API_PATH}`, first.headers, context.connections, context.seconds);
      context.log(`outbox: API ${API_PATH} without mail to send (${where}): ${describeLoad(quiet)}  [${context.command}]`);
    } finally {
      await first.stop();
    }

    await queue(target, MESSAGES);
    const server = await startBenchServer(target, { SMTP_URL: sink.url, MAIL_FROM: 'awards@example.org' });
    try {
      const rssIdle = rssMb(server.pid);
      let rssPeak = rssIdle;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, rssMb(server.pid));
      }, 100);
      // The API measured while the flood is being sent (the load starts with the worker already busy).
      const during =
        sink.messages.length < MESSAGES ? await runLoad(`${server.base}${API_PATH}`, server.headers, context.connections, context.seconds) : undefined;
      const sentDuringLoad = sink.messages.length;
      await sink.waitFor(() => sink.messages.length >= MESSAGES, `${MESSAGES} messages`, 30 * 60_000);
      // From the first message the sink accepted to the last.
      const seconds = (sink.messages.at(-1)!.at - sink.messages[0]!.at) / 1000;
      clearInterval(sampler);
      rssPeak = Math.max(rssPeak, rssMb(server.pid));
      const counts = sink.countsByMessageId();
      const duplicates = [...counts.values()].filter((n) => n > 1).length;
      context.log(
        `outbox: ${MESSAGES} messages to a local SMTP sink (${where}): ${(MESSAGES / seconds).toFixed(0)} messages/s (${seconds.toFixed(1)} s from the first to the last), ${counts.size} distinct Message-IDs, ${duplicates} duplicated; server RSS ${rssIdle.toFixed(0)} MB at start → peak ${rssPeak.toFixed(0)} MB  [${context.command}]`,
      );
      if (during) {
        context.log(
          `outbox: API ${API_PATH} beside the flood (${sentDuringLoad} messages sent during the ${context.seconds} s of load): ${describeLoad(during)}  [${context.command}]`,
        );
      } else context.log('outbox: the flood was sent before the API load started; raise BENCH_OUTBOX_MESSAGES to measure beside it.');
      return counts.size === MESSAGES && duplicates === 0;
    } finally {
      await server.stop();
    }
  } finally {
    await sink.close();
    if (target.kind === 'pglite') fs.rmSync(target.dataDir, { recursive: true, force: true });
  }
}
