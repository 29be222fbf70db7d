import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { isTemplated, type Mailer, type OutgoingMail, renderedMail, type SendOptions } from '../../../server/index.js';
import { outboxDb } from './outbox-tables.js';

/** The template an old-shape message (subject and text, no template) is listed under. */
export const PLAIN_TEMPLATE = 'plain';

/** The domain of every Message-ID: `MAIL_FROM`'s, else the public address's host. */
export function messageIdDomain(config: { mailFrom: string; publicUrl: string }): string {
  const fromDomain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(config.mailFrom)?.[1];
  if (fromDomain) return fromDomain.toLowerCase();
  try {
    return new URL(config.publicUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** A new, globally unique Message-ID (`<uuid@domain>`), fixed for the row's life. */
export function newMessageId(domain: string): string {
  return `<${randomUUID()}@${domain}>`;
}

/**
 * Writes one message to the outbox in `db` (the cause's transaction when the caller has one): its
 * subject and text rendered now in its language, a Message-ID fixed now. Returns the row's id.
 */
export async function enqueueMail(db: Kysely<any>, message: OutgoingMail, domain: string): Promise<number> {
  const { subject, text } = renderedMail(message);
  const templated = isTemplated(message) ? message : undefined;
  const row = await outboxDb(db)
    .insertInto('notification_outbox')
    .values({
      user_id: templated?.userId ?? null,
      recipient: message.to,
      template: templated?.template ?? PLAIN_TEMPLATE,
      language: templated?.language ?? 'en',
      vars: JSON.stringify(templated?.vars ?? {}),
      subject,
      body: text,
      link: templated?.link ?? null,
      message_id: newMessageId(domain),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * The notifications feature's mailer (`ServerFeature.mailer`): `send` writes the message to the
 * outbox (in `options.db`, the cause's transaction, when given; else the app's database) and wakes
 * the worker, which sends it through SMTP. Without `SMTP_URL` the message stays queued, listed in
 * the outbox screen; the info log names the recipient and template only (a link is a secret), the
 * debug log holds the text.
 */
export function createOutboxMailer(app: FastifyInstance, wake: () => void): Mailer {
  const domain = messageIdDomain(app.config);
  const transport = app.config.smtpUrl ? 'smtp' : 'log';
  return {
    transport,
    async send(message: OutgoingMail, options?: SendOptions) {
      const id = await enqueueMail(options?.db ?? app.db, message, domain);
      const template = isTemplated(message) ? message.template : PLAIN_TEMPLATE;
      if (transport === 'log') {
        app.log.info({ outbox: id, template }, `No SMTP_URL configured; mail to ${message.to} kept unsent in the outbox (admins: Outbox screen).`);
        // Its text may hold a secret link: at debug level only (a developer's machine, a test).
        if (app.log.level === 'debug' || app.log.level === 'trace') app.log.debug({ outbox: id, mail: renderedMail(message) }, 'unsent mail');
      }
      wake();
    },
  };
}
