import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import en from '../../../locales/en/common.json';
import id from '../../../locales/id/common.json';
import ms from '../../../locales/ms/common.json';
import type { AppConfig } from '../config.js';

/** One outgoing message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail through SMTP, or writes it to the log when no transport is configured. */
export interface Mailer {
  /** Whether a real transport is configured (`SMTP_URL`). */
  readonly transport: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
}

/** Builds the mailer from `SMTP_URL` / `MAIL_FROM`; without `SMTP_URL` messages go to the info log. */
export function createMailer(config: Pick<AppConfig, 'smtpUrl' | 'mailFrom'>, log: FastifyBaseLogger): Mailer {
  if (!config.smtpUrl) {
    return {
      transport: 'log',
      async send(message) {
        log.info({ mail: message }, `No SMTP_URL configured; mail to ${message.to} written to the log instead.`);
      },
    };
  }
  const transporter = nodemailer.createTransport(config.smtpUrl);
  return {
    transport: 'smtp',
    async send(message) {
      await transporter.sendMail({ from: config.mailFrom, ...message });
    },
  };
}

type Catalogue = Record<string, unknown>;
const CATALOGUES: Record<string, Catalogue> = { en, id, ms };

/**
 * Looks up a dotted key in a server-side message catalogue (mail is written in the admin's
 * language), falling back to English, and fills `{{var}}` placeholders.
 */
export function translate(language: string, key: string, vars: Record<string, string> = {}): string {
  const lookup = (catalogue: Catalogue | undefined) =>
    key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Catalogue)[part] : undefined), catalogue);
  const found = lookup(CATALOGUES[language]) ?? lookup(CATALOGUES.en);
  const text = typeof found === 'string' ? found : key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => vars[name] ?? whole);
}
