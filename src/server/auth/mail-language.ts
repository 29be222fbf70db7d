import type { Kysely } from 'kysely';
import type { SystemTables } from '../db/system-tables.js';
import { MAIL_LANGUAGES, type MailLanguage } from './mailer.js';

/** The `settings` row naming the programme's default language (`en`, `id` or `ms`); English without it. */
export const DEFAULT_LANGUAGE_SETTING = 'default_language';

/** Whether a value names a language mail is written in. */
export function isMailLanguage(value: unknown): value is MailLanguage {
  return typeof value === 'string' && (MAIL_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The programme's default language: the `default_language` setting when it names a supported
 * language, else English. Mail to someone without an account (an applicant, a submittor) is
 * written in it, and a new invited account starts with it.
 */
export async function programmeLanguage(db: Kysely<SystemTables> | Kysely<any>): Promise<MailLanguage> {
  const row = await (db as Kysely<SystemTables>).selectFrom('settings').select('value').where('key', '=', DEFAULT_LANGUAGE_SETTING).executeTakeFirst();
  return isMailLanguage(row?.value) ? row.value : 'en';
}

/**
 * The language a mail to a person is written in: their account's `preferences.language`, else the
 * programme's default ({@link programmeLanguage}).
 */
export async function recipientLanguage(
  db: Kysely<SystemTables> | Kysely<any>,
  account: { preferences?: { language?: unknown } | null } | null | undefined,
): Promise<MailLanguage> {
  const chosen = account?.preferences?.language;
  return isMailLanguage(chosen) ? chosen : programmeLanguage(db);
}
