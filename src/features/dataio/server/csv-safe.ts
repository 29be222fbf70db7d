import { sql } from 'kysely';

/**
 * CSV formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that begins with `=`,
 * `+`, `-` or `@` as a formula, and a leading tab or carriage return can hide one. Every CSV the
 * data feature writes passes its text cells through {@link csvSafe}, which puts a single quote
 * before such a cell, so the spreadsheet shows it as text. A plain number (`-5`, `+3.5`) is not a
 * formula and stays as it is, so numbers still read back as numbers.
 */

/** Leading characters a spreadsheet may read as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain (signed) decimal number. */
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** The cell's text, prefixed with `'` when a spreadsheet would run it as a formula. */
export function csvSafe(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** {@link csvSafe} for any cell value: strings are neutralised, other values pass unchanged. */
export const csvSafeValue = <T>(value: T): T | string => (typeof value === 'string' ? csvSafe(value) : value);

/** The same rule in SQL, for text PostgreSQL writes itself (the COPY export). */
export function csvSafeSql(text: ReturnType<typeof sql>) {
  return sql`case when left(${text}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) and ${text} !~ '^[-+]?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$' then '''' || ${text} else ${text} end`;
}
