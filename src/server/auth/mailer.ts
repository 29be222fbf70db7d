import type { FastifyBaseLogger } from 'fastify';
import i18next, { type i18n as I18n } from 'i18next';
import type { Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';
import en from '../../../locales/en/common.json';
import id from '../../../locales/id/common.json';
import ms from '../../../locales/ms/common.json';
import type { AppConfig } from '../config.js';
import { cachedProductName } from '../settings/product-name.js';

/** The languages a mail is written in. */
export type MailLanguage = 'en' | 'id' | 'ms';
export const MAIL_LANGUAGES: readonly MailLanguage[] = ['en', 'id', 'ms'];

/**
 * A message already written (subject and text). The old shape: call sites move to
 * {@link TemplatedMail}; this one goes once none is left.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * A message by template: its texts are the locale keys `emails.<template>.subject` and
 * `emails.<template>.body`, written in `language` with `vars` (a numeric `vars.count` picks the
 * plural: `body_one` / `body_other`). `link` is the secret link (invitation, password reset): the
 * body's `{{link}}`, kept for admins in the outbox and never written to the log at info level.
 */
export interface TemplatedMail {
  to: string;
  /** The recipient's account, when it has one (the in-app bell lists its messages). */
  userId?: number | null;
  language: MailLanguage;
  template: string;
  vars: Record<string, string | number>;
  link?: string;
}

/** What {@link Mailer.send} accepts. */
export type OutgoingMail = MailMessage | TemplatedMail;

/** Where a message is written: the cause's transaction, so the mail exists exactly when its cause does. */
export interface SendOptions {
  db?: Kysely<any>;
}

/**
 * Sends mail. The notifications feature's mailer writes each message to the outbox (in
 * `options.db`, the cause's transaction, when given) and a worker sends it; without that feature
 * the core mailer sends at once through SMTP, or writes to the log when no transport is configured.
 */
export interface Mailer {
  /** Whether a real transport is configured (`SMTP_URL`). */
  readonly transport: 'smtp' | 'log';
  send(message: OutgoingMail, options?: SendOptions): Promise<void>;
}

/** Whether a message is by template. */
export function isTemplated(message: OutgoingMail): message is TemplatedMail {
  return 'template' in message;
}

/** A message's subject and text: a templated one rendered in its language. */
export function renderedMail(message: OutgoingMail): { to: string; subject: string; text: string } {
  if (!isTemplated(message)) return message;
  const { subject, text } = renderMail(message.language, message.template, message.link ? { ...message.vars, link: message.link } : message.vars);
  return { to: message.to, subject, text };
}

/**
 * The core mailer from `SMTP_URL` / `MAIL_FROM`: sends at once through SMTP; without `SMTP_URL` the
 * info log says a mail was not sent (recipient and subject) and the debug log holds its text (links
 * are secrets: never at info level). The notifications feature replaces it with the outbox.
 */
export function createMailer(config: Pick<AppConfig, 'smtpUrl' | 'mailFrom'>, log: FastifyBaseLogger): Mailer {
  if (!config.smtpUrl) {
    return {
      transport: 'log',
      async send(message) {
        const mail = renderedMail(message);
        log.info({ mail: { to: mail.to, subject: mail.subject } }, `No SMTP_URL configured; mail to ${mail.to} not sent (its text is in the debug log).`);
        log.debug({ mail }, 'unsent mail');
      },
    };
  }
  // nodemailer (some 14 MB) is loaded with the first mail.
  let transporter: Promise<Transporter> | undefined;
  return {
    transport: 'smtp',
    async send(message) {
      transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(config.smtpUrl));
      await (await transporter).sendMail({ from: config.mailFrom, ...renderedMail(message) });
    },
  };
}

let instance: I18n | undefined;

/** The server's own i18next: the three catalogues, English the fallback, no escaping (mail is plain text). */
function mailI18n(): I18n {
  if (instance) return instance;
  const created = i18next.createInstance();
  void created.init({
    resources: { en: { common: en }, id: { common: id }, ms: { common: ms } },
    ns: ['common'],
    defaultNS: 'common',
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: ['en', 'id', 'ms'],
    nsSeparator: false,
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
    // As before i18next: a placeholder without a value stays as written, not emptied.
    missingInterpolationHandler: (_text: string, match: RegExpExecArray) => match[0],
  });
  instance = created;
  return created;
}

/** `vars.count` as a number when it is one (a string count still picks the plural). */
function withCount(vars: Record<string, string | number>): { count?: number } {
  const count = vars.count;
  if (count === undefined) return {};
  const number = typeof count === 'number' ? count : Number(count);
  return Number.isFinite(number) ? { count: number } : {};
}

/**
 * Looks up a dotted key in the server's catalogues (mail is written in its reader's language),
 * falling back to English and then to the key, and fills `{{var}}` placeholders (`{{product}}` is
 * the product's name when the caller passes none); a numeric `count` picks the plural form.
 */
export function translate(language: string, key: string, vars: Record<string, string | number> = {}): string {
  const i18n = mailI18n();
  const lng = MAIL_LANGUAGES.includes(language as MailLanguage) ? language : 'en';
  const replace = { product: cachedProductName(), ...vars };
  const text = i18n.t(key, { lng, replace, ...withCount(vars), defaultValue: key, returnObjects: false });
  return typeof text === 'string' ? text : key;
}

/**
 * A template's subject and text in a language: `emails.<template>.subject` and
 * `emails.<template>.body` (a numeric `vars.count` picks `body_one` / `body_other`).
 */
export function renderMail(language: string, template: string, vars: Record<string, string | number> = {}): { subject: string; text: string } {
  return { subject: translate(language, `emails.${template}.subject`, vars), text: translate(language, `emails.${template}.body`, vars) };
}
