import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Mailer } from '../../../server/index.js';
import { createOutboxMailer } from './outbox-mailer.js';
import { outboxSettings } from './outbox-settings.js';
import { OutboxWorker, smtpTransport } from './outbox-worker.js';

const workers = new WeakMap<FastifyInstance, OutboxWorker>();

/** `ServerFeature.mailer`: every mail goes to the outbox; a new one wakes this server's worker. */
export function outboxMailer(app: FastifyInstance, _core: Mailer): Mailer {
  return createOutboxMailer(app, () => workers.get(app)?.wake());
}

/** This app's worker, when it sends (tests look at it). */
export function outboxWorkerOf(app: FastifyInstance): OutboxWorker | undefined {
  return workers.get(app);
}

/**
 * The outbox worker as a setup plugin: with `SMTP_URL` set (and `OUTBOX_WORKER` not `off`) this
 * server sends queued mail, sharing the queue with any other server on the database; it starts
 * once the app is ready and stops before the database closes (unsent claims handed back).
 * Without `SMTP_URL` nothing is sent: the messages stay queued, listed in the outbox screen.
 */
export const outboxPlugin = fp(
  async function outboxPlugin(app: FastifyInstance) {
    const settings = outboxSettings();
    if (!app.config.smtpUrl || !settings.enabled) return;
    const worker = new OutboxWorker(app.db, smtpTransport(app.config.smtpUrl, app.config.mailFrom, settings), settings, app.log);
    workers.set(app, worker);
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => {
      await worker.stop();
    });
  },
  { name: 'notifications-outbox' },
);
