import dayjs, { type Dayjs } from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat.js';
import utc from 'dayjs/plugin/utc.js';
import 'dayjs/locale/id.js';
import 'dayjs/locale/ms.js';
import { formatDate, formatDateTime } from '../../shared/format.js';

dayjs.extend(utc);
dayjs.extend(localizedFormat);

/** dayjs locale names of the console's languages; anything else formats in English. */
const LOCALES: Record<string, string> = { en: 'en', id: 'id', ms: 'ms' };

function localeOf(language: string | undefined): string {
  return LOCALES[(language ?? 'en').slice(0, 2).toLowerCase()] ?? 'en';
}

/**
 * Parses an API date or date-time as UTC: a value without a zone (`2025-01-05 10:00:00`) is taken
 * as UTC, one with an offset is converted. `null` when empty, `'invalid'` when unparsable.
 */
export function parseUtc(value: unknown): Dayjs | null | 'invalid' {
  if (value === null || value === undefined || value === '') return null;
  if (!(typeof value === 'string' || typeof value === 'number' || value instanceof Date)) return 'invalid';
  const parsed = typeof value === 'string' ? dayjs.utc(value.trim().replace(' ', 'T')) : dayjs.utc(value);
  return parsed.isValid() ? parsed : 'invalid';
}

/**
 * The spec's long date ('January 5, 2025'; '5 Januari 2025'), with the time when `withTime`, by the
 * shared rule (src/shared/format.ts): a moment in the reader's time zone, its time followed by the
 * zone's name; a calendar date as written. Returns `null` for an empty value and `'invalid'` for an
 * unparsable one so the caller shows 'Not provided' or 'Invalid Date' in the reader's language.
 */
export function formatLongDate(value: unknown, language?: string, withTime = false, timeZone?: string): string | null | 'invalid' {
  const parsed = parseUtc(value);
  if (parsed === null || parsed === 'invalid') return parsed;
  const moment = parsed.toDate();
  // A date without a time of day (a campaign's start date) never shows midnight.
  const dateOnly = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
  const lng = localeOf(language);
  if (dateOnly) return formatDate(value as string, lng) ?? 'invalid';
  return (withTime ? formatDateTime(moment, lng, { timeZone }) : formatDate(moment, lng, { timeZone })) ?? 'invalid';
}

/** How long ago, in the largest whole unit the spec names (days, hours, minutes), else just now. */
export type RelativeAge = { unit: 'days' | 'hours' | 'minutes'; count: number } | { unit: 'now'; count: 0 };

/**
 * The age of `value` at `now` in days, hours or minutes; under a minute (or in the future) is
 * `now` ('Just now'). `null` / `'invalid'` as {@link formatLongDate}.
 */
export function relativeAge(value: unknown, now: Date = new Date()): RelativeAge | null | 'invalid' {
  const parsed = parseUtc(value);
  if (parsed === null || parsed === 'invalid') return parsed;
  const seconds = Math.floor((now.getTime() - parsed.valueOf()) / 1000);
  if (seconds >= 86_400) return { unit: 'days', count: Math.floor(seconds / 86_400) };
  if (seconds >= 3_600) return { unit: 'hours', count: Math.floor(seconds / 3_600) };
  if (seconds >= 60) return { unit: 'minutes', count: Math.floor(seconds / 60) };
  return { unit: 'now', count: 0 };
}
