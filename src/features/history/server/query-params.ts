import { badRequest } from '../../../server/index.js';

/**
 * History's query parameters, read by hand so that each error names the parameter: a blank value
 * counts as absent, anything unknown is a 400.
 */
export type Query = Record<string, unknown>;

/** A positive whole number (at most `max`), else `fallback` when absent. */
export function positive(query: Query, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  const text = String(raw);
  if (text.length > 12 || !/^[1-9][0-9]*$/.test(text)) throw badRequest(`Invalid ${name}: a positive whole number is expected.`);
  return Math.min(Number(text), max);
}

/** A date or date-time, as an ISO instant. */
export function instant(query: Query, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw);
  const time = text.length <= 40 ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) throw badRequest(`Invalid ${name}: a date or date-time is expected.`);
  return new Date(time).toISOString();
}

/** A text of at most `max` characters. */
export function text(query: Query, name: string, max = 100): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  const value = String(raw);
  if (value.length > max) throw badRequest(`Invalid ${name}: at most ${max} characters.`);
  return value;
}

/** 400 for a parameter not in `known`. */
export function onlyKnown(query: Query, known: readonly string[]) {
  const unknown = Object.keys(query).find((name) => !known.includes(name));
  if (unknown) throw badRequest(`Unknown query parameter: ${unknown}.`);
}
