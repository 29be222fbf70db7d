/**
 * Numbers, money, sizes, dates and times in the reader's language: the one place both sides format
 * them (the browser through the engine's `useFormat`, the server for texts it words itself), always
 * with `Intl` and the language's own locale, never `toFixed`, `toLocaleString()` or a raw number.
 *
 * The time-zone rule: a moment (a date-time) is shown in the reader's own time zone (the browser's,
 * {@link userTimeZone}), and wherever a time of day is shown the zone's name follows it ('17.00 WIB',
 * '6:00 PM GMT+8'); a calendar date (a campaign's start date, `2026-02-01`) is that date, in no zone.
 * The server, which has no reader's zone, words a moment in UTC and says so.
 */

/** The `Intl` locale of each console language: English dates read 'January 5, 2025' (the spec's). */
const LOCALES: Record<string, string> = { en: 'en-US', id: 'id-ID', ms: 'ms-MY' };

/** The currency a language's readers count in: its amounts show the local symbol (Rp, RM). */
export const HOME_CURRENCY: Record<string, string> = { id: 'IDR', ms: 'MYR' };

/** Currencies whose narrow symbol is unambiguous and what their readers expect ('Rp25.000', 'RM25,000.00'). */
const NARROW_SYMBOL = new Set(['IDR', 'MYR']);

/** The `Intl` locale for a console language or tag (`ms-MY`, `id`); English for anything else. */
export function intlLocale(language: string | null | undefined): string {
  return LOCALES[(language ?? 'en').slice(0, 2).toLowerCase()] ?? 'en-US';
}

let readerZone: string | undefined;

/** The reader's time zone (the browser's); UTC where none can be known. Read once: making a formatter to ask is slow, and a list asks per cell. */
export function userTimeZone(): string {
  if (readerZone) return readerZone;
  try {
    readerZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    readerZone = 'UTC';
  }
  return readerZone;
}

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let found = cache.get(key) as T | undefined;
  if (!found) {
    found = make();
    if (cache.size > 200) cache.clear();
    cache.set(key, found);
  }
  return found;
}

function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const locale = intlLocale(language);
  return cached(`n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

/** A count or figure: '200,000' in English, '200.000' in Indonesian; up to `maximumFractionDigits` decimals (default 2). */
export function formatNumber(value: number, language: string, options: { maximumFractionDigits?: number; minimumFractionDigits?: number } = {}): string {
  if (!Number.isFinite(value)) return '–';
  const maximumFractionDigits = options.maximumFractionDigits ?? 2;
  return numberFormat(language, {
    maximumFractionDigits,
    minimumFractionDigits: Math.min(options.minimumFractionDigits ?? 0, maximumFractionDigits),
  }).format(value);
}

/**
 * A number as a reader types it into a field: the language's decimal separator, no grouping
 * ('8,5' in Indonesian, '8.5' in Malay), so what a form shows reads back the same.
 */
export function formatInputNumber(value: number, language: string): string {
  return Number.isFinite(value) ? numberFormat(language, { useGrouping: false, maximumFractionDigits: 20 }).format(value) : '';
}

/** A score or mean (at most 2 decimals: '85,25' in Indonesian); a dash when there is none. */
export function formatScore(value: number | null | undefined, language: string): string {
  return value === null || value === undefined ? '–' : formatNumber(value, language, { maximumFractionDigits: 2 });
}

/** A share of 1 as a percentage ('42%', '42 %' where the language spaces it). */
export function formatPercent(ratio: number, language: string): string {
  return Number.isFinite(ratio) ? numberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(ratio) : '–';
}

/**
 * An amount of money: the home currencies with their local symbol and no space ('Rp25.000',
 * 'RM25,000.00'), any other with its symbol as the language writes it ('US$25.000,00').
 */
export function formatMoney(amount: number, currency: string, language: string): string {
  if (!Number.isFinite(amount)) return '–';
  const code = currency.toUpperCase();
  let format: Intl.NumberFormat;
  try {
    format = numberFormat(language, { style: 'currency', currency: code, currencyDisplay: NARROW_SYMBOL.has(code) ? 'narrowSymbol' : 'symbol' });
  } catch {
    return `${code} ${formatNumber(amount, language)}`;
  }
  if (!NARROW_SYMBOL.has(code)) return format.format(amount);
  const parts = format.formatToParts(amount);
  // 'Rp 25.000' (ICU puts a no-break space after a letter symbol): readers write 'Rp25.000'.
  return parts
    .filter((part, i) => !(part.type === 'literal' && /^\s+$/u.test(part.value) && (parts[i - 1]?.type === 'currency' || parts[i + 1]?.type === 'currency')))
    .map((part) => part.value)
    .join('');
}

/** A file size: '1.5 MB', '1,5 MB'; bytes below a kilobyte as 'B'. */
export function formatBytes(bytes: number, language: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return numberFormat(language, { style: 'unit', unit: units[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}

type DateInput = string | number | Date | null | undefined;

/** A calendar date written without a time (`2026-02-01`): shown as that date, in no zone. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Parses an API value as a moment: a date-time without an offset (`2025-01-05 10:00:00`) is UTC. */
export function parseMoment(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null;
  const text = value.trim().replace(' ', 'T');
  const withZone = DATE_ONLY.test(text) || /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`;
  const date = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : withZone);
  return Number.isNaN(date.getTime()) ? null : date;
}

function dateTimeFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = intlLocale(language);
  return cached(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export interface DateTimeOptions {
  /** The zone to show the moment in: the reader's by default (the server passes 'UTC'). */
  timeZone?: string;
  /** 'long': 'January 5, 2025 at 6:00 PM GMT+8'; 'short' (lists): 'Jan 5, 2025, 6:00 PM GMT+8'. */
  style?: 'long' | 'short';
  /** Whether the zone's name follows the time (default true: the rule says where a time is, say its zone). */
  zoneLabel?: boolean;
}

/** A moment with its time of day in the reader's zone and the zone's name; null when absent or unparsable. */
export function formatDateTime(value: DateInput, language: string, options: DateTimeOptions = {}): string | null {
  const date = parseMoment(value);
  if (!date) return null;
  if (typeof value === 'string' && DATE_ONLY.test(value.trim())) return formatDate(value, language, options);
  return dateTimeFormat(language, {
    year: 'numeric',
    month: options.style === 'short' ? 'short' : 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: options.timeZone ?? userTimeZone(),
    ...(options.zoneLabel === false ? {} : { timeZoneName: 'short' }),
  }).format(date);
}

/** The date alone ('January 5, 2025', '5 Januari 2025'): a moment's date in the reader's zone, a calendar date as written. */
export function formatDate(value: DateInput, language: string, options: Pick<DateTimeOptions, 'timeZone' | 'style'> = {}): string | null {
  const date = parseMoment(value);
  if (!date) return null;
  const calendar = typeof value === 'string' && DATE_ONLY.test(value.trim());
  return dateTimeFormat(language, {
    year: 'numeric',
    month: options.style === 'short' ? 'short' : 'long',
    day: 'numeric',
    timeZone: calendar ? 'UTC' : (options.timeZone ?? userTimeZone()),
  }).format(date);
}

/** The name of a zone as the time labels write it ('WIB', 'GMT+8', 'UTC'): what the screens say their times are in. */
export function timeZoneLabel(language: string, timeZone: string = userTimeZone(), at: Date = new Date()): string {
  const part = dateTimeFormat(language, { timeZone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}
