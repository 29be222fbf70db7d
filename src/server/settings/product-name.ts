import type { Kysely } from 'kysely';
import { DEFAULT_PRODUCT_TITLE, PRODUCT_TITLE_MAX } from '../../shared/product.js';
import type { SystemTables } from '../db/system-tables.js';

/** The `settings` row that holds the programme's own name ('Malaysian Digital Awards 2026'). */
export const PRODUCT_NAME_SETTING = 'product_name';

let cached: string = DEFAULT_PRODUCT_TITLE;

/** A stored name as shown: trimmed, inner runs of white space made one space; empty means the default. */
export function normaliseProductName(value: string | null | undefined): string {
  const name = (value ?? '').replace(/\s+/g, ' ').trim().slice(0, PRODUCT_TITLE_MAX);
  return name || DEFAULT_PRODUCT_TITLE;
}

/**
 * The product's name in the UI and in mails: the programme's own name when an admin set one, else the
 * spec's 'Awards CMS'. Reads the database (and refreshes {@link cachedProductName}); use it when
 * writing a mail: `translate(lng, 'emails.x.subject', { product: await productName(db) })`.
 */
export async function productName(db: Kysely<SystemTables> | Kysely<any>): Promise<string> {
  const row = await (db as Kysely<SystemTables>).selectFrom('settings').select('value').where('key', '=', PRODUCT_NAME_SETTING).executeTakeFirst();
  cached = normaliseProductName(row?.value);
  return cached;
}

/**
 * The name last read or written by this process (the default before the first read): what
 * `translate` fills `{{product}}` with when the caller passes none.
 */
export function cachedProductName(): string {
  return cached;
}

/** Stores the programme's name (null or blank: back to the default) and answers the name now in use. */
export async function setProductName(db: Kysely<SystemTables> | Kysely<any>, value: string | null): Promise<string> {
  const name = normaliseProductName(value);
  const database = db as Kysely<SystemTables>;
  if (name === DEFAULT_PRODUCT_TITLE) await database.deleteFrom('settings').where('key', '=', PRODUCT_NAME_SETTING).execute();
  else
    await database
      .insertInto('settings')
      .values({ key: PRODUCT_NAME_SETTING, value: name })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: name }))
      .execute();
  cached = name;
  return name;
}
