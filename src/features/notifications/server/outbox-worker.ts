import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { OutboxSettings } from './outbox-settings.js';
import { retryDelaySeconds } from './outbox-settings.js';

/*
 * Delivery: at least once, with a Message-ID fixed per row, so exactly once to a server that
 * de-duplicates by Message-ID.
 *
 * - A claim is one statement: due `queued` rows, and `sending` rows whose claim has run out (their
 *   server died), become `sending` with `claimed_until` / `claimed_by` and one more attempt
 *   (`FOR UPDATE SKIP LOCKED`: servers sharing a PostgreSQL database claim disjoint rows without
 *   waiting for each other; PGlite is one server, the same statement).
 * - Each message is marked `sent` right after the SMTP server accepted it, one by one. A crash
 *   between the two leaves the row `sending`; once its claim runs out a server sends it again with
 *   the same Message-ID. So nothing is lost, and at most the messages in flight at the crash
 *   (`OUTBOX_CONCURRENCY`) reach the SMTP server twice, under the same Message-ID.
 * - While a batch is being sent its remaining claims are renewed, so a slow batch is not taken
 *   over; a server that stops gracefully hands its unsent claims back at once.
 */

/** A claimed message, as the worker sends it. */
export interface ClaimedMessage {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  message_id: string;
  attempts: number;
}

/** Claims up to `limit` due messages for `holder` (see the note above). */
export async function claimDue(db: Kysely<any>, holder: string, limit: number, claimSeconds: number): Promise<ClaimedMessage[]> {
  const { rows } = await sql<ClaimedMessage>`
    update notification_outbox o
       set status = 'sending', attempts = o.attempts + 1, claimed_by = ${holder},
           claimed_until = now() + make_interval(secs => ${claimSeconds})
     where o.id in (
       select id from notification_outbox
        where (status = 'queued' and next_attempt_at <= now()) or (status = 'sending' and claimed_until < now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked)
    returning o.id, o.recipient, o.subject, o.body, o.message_id, o.attempts`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id) })).sort((a, b) => a.id - b.id);
}

/**
 * Marks a message sent (whoever holds it: a server that took over a lapsed claim may have sent it
 * too); `claimed_by` stays, naming the server that sent it.
 */
export async function markSent(db: Kysely<any>, id: number): Promise<void> {
  await sql`update notification_outbox set status = 'sent', sent_at = now(), last_error = null, claimed_until = null
    where id = ${id} and status = 'sending'`.execute(db);
}

/**
 * Records a failed try: `failed` when the error is permanent or the message was queued longer
 * ago than the give-up window, else `queued` again after the backoff for its attempts.
 */
export async function markFailed(db: Kysely<any>, message: ClaimedMessage, error: string, permanent: boolean, settings: OutboxSettings): Promise<void> {
  const delay = retryDelaySeconds(message.attempts, settings);
  await sql`update notification_outbox
      set status = case when ${permanent} or queued_at + make_interval(secs => ${settings.giveUpSeconds}) <= now() then 'failed' else 'queued' end,
          next_attempt_at = now() + make_interval(secs => ${delay}), last_error = ${error.slice(0, 1000)},
          claimed_until = null, claimed_by = null
    where id = ${message.id} and status = 'sending'`.execute(db);
}

/** Renews the claims a server still holds on `ids`. */
async function renewClaims(db: Kysely<any>, holder: string, ids: number[], claimSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await sql`update notification_outbox set claimed_until = now() + make_interval(secs => ${claimSeconds})
    where id = any(${ids}::bigint[]) and status = 'sending' and claimed_by = ${holder}`.execute(db);
}

/** Hands claims back untried (a graceful stop): queued again at once, the attempt not counted. */
async function releaseClaims(db: Kysely<any>, holder: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update notification_outbox set status = 'queued', attempts = greatest(attempts - 1, 0), claimed_until = null, claimed_by = null
    where id = any(${ids}::bigint[]) and status = 'sending' and claimed_by = ${holder}`.execute(db);
}

/** An SMTP answer that will not change on a retry: the recipient refused (5xx to RCPT TO). */
export function isPermanent(error: unknown): boolean {
  const e = error as { responseCode?: number; command?: string };
  return typeof e?.responseCode === 'number' && e.responseCode >= 550 && e.responseCode <= 553 && e.command === 'RCPT TO';
}

/** How a message leaves: nodemailer over SMTP in production, anything in a test. */
export interface OutboxTransport {
  send(message: ClaimedMessage): Promise<void>;
  close(): void;
}

/** A pooled nodemailer SMTP transport from `SMTP_URL`; the row's Message-ID is the mail's. */
export function smtpTransport(smtpUrl: string, from: string, settings: OutboxSettings): OutboxTransport {
  // nodemailer (some 14 MB) is loaded with the first message to send.
  let transporter: Promise<Transporter> | undefined;
  const connect = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        maxConnections: settings.concurrency,
        maxMessages: 1_000,
        connectionTimeout: settings.smtpTimeoutMs,
        greetingTimeout: settings.smtpTimeoutMs,
        socketTimeout: settings.smtpTimeoutMs,
      }),
    ));
  return {
    async send(message) {
      await (await connect()).sendMail({ from, to: message.recipient, subject: message.subject, text: message.body, messageId: message.message_id });
    },
    close() {
      void transporter?.then((open) => open.close());
    },
  };
}

/** What one pass did. */
export interface PassResult {
  claimed: number;
  sent: number;
  failed: number;
}

/**
 * The sending loop of one server: claims a batch, sends it `concurrency` at a time (each marked as
 * soon as it is accepted or refused), and goes again at once while there is work, else after
 * `pollMs` or when woken ({@link wake}, called by the outbox mailer after a new message).
 */
export class OutboxWorker {
  readonly holder = randomUUID();
  private stopped = true;
  private loop: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;

  constructor(
    private readonly db: Kysely<any>,
    private readonly transport: OutboxTransport,
    private readonly settings: OutboxSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Looks for work soon (a new message may be in a transaction about to commit). */
  wake(): void {
    if (this.stopped || this.woken) return;
    this.woken = true;
    setTimeout(() => {
      this.woken = false;
      this.wakeUp?.();
    }, 100).unref();
  }

  /** Stops after the messages in flight; unsent claims go back to the queue. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    this.transport.close();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let result: PassResult = { claimed: 0, sent: 0, failed: 0 };
      try {
        result = await this.pass();
      } catch (error) {
        this.log.warn({ err: { message: (error as Error).message } }, 'outbox pass failed');
      }
      if (this.stopped) break;
      if (result.claimed >= this.settings.batchSize) continue;
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        this.timer = setTimeout(resolve, this.settings.pollMs);
        this.timer.unref();
      });
      clearTimeout(this.timer);
      this.wakeUp = undefined;
    }
  }

  /** One batch: claim, send side by side, mark each. */
  async pass(): Promise<PassResult> {
    const { db, settings, holder } = this;
    const batch = await claimDue(db, holder, settings.batchSize, settings.claimSeconds);
    const result: PassResult = { claimed: batch.length, sent: 0, failed: 0 };
    if (batch.length === 0) return result;
    const pending = new Set(batch.map((m) => m.id));
    const renew = setInterval(
      () => {
        renewClaims(db, holder, [...pending], settings.claimSeconds).catch((error: Error) =>
          this.log.warn({ err: { message: error.message } }, 'outbox claim renewal failed'),
        );
      },
      Math.max(1_000, (settings.claimSeconds * 1000) / 3),
    );
    renew.unref();
    const queue = [...batch];
    const sendOne = async (message: ClaimedMessage) => {
      try {
        await this.transport.send(message);
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        await markFailed(db, message, text, isPermanent(error), settings);
        pending.delete(message.id);
        result.failed += 1;
        this.log.warn({ outbox: message.id, attempts: message.attempts, err: { message: text } }, 'outbox message not sent');
        return;
      }
      await markSent(db, message.id);
      pending.delete(message.id);
      result.sent += 1;
    };
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (this.stopped) return;
        await sendOne(next);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(settings.concurrency, batch.length) }, lane));
    } finally {
      clearInterval(renew);
      // Left untried by a stop: back to the queue now rather than after the claim runs out.
      await releaseClaims(db, holder, [...pending]).catch(() => undefined);
    }
    return result;
  }
}
