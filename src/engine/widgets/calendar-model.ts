/**
 * The calendar's pure rules: weeks start on Monday, a month is shown as whole weeks
 * with the neighbouring months' days marked outside, dates are stored as `YYYY-MM-DD` and shown as
 * `05 Jan 2025` in the chosen language, and the keyboard moves by day, week, month and year.
 * Dates here are calendar days with no time zone: `YYYY-MM-DD` strings in and out.
 */
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import localeData from 'dayjs/plugin/localeData.js';
import 'dayjs/locale/id.js';
import 'dayjs/locale/ms.js';

dayjs.extend(customParseFormat);
dayjs.extend(localeData);

/** The storage format of a date (year-month-day). */
export const STORED_FORMAT = 'YYYY-MM-DD';
/** The display format of a date ('05 Jan 2025'). */
export const DISPLAY_FORMAT = 'DD MMM YYYY';

/** One cell of a month grid. */
export interface CalendarDay {
  /** The day as `YYYY-MM-DD`. */
  iso: string;
  /** Day of the month, 1-31. */
  day: number;
  /** False for the previous or next month's days that fill the first and last week. */
  inMonth: boolean;
  isToday: boolean;
  /** False when the day lies before `min` or after `max`. */
  selectable: boolean;
}

/** Bounds a picker accepts, inclusive, as `YYYY-MM-DD`. */
export interface DateBounds {
  min?: string | undefined;
  max?: string | undefined;
}

/** Maps an app language (`en`, `id`, `ms`, or a region variant such as `en-US`) to a dayjs locale. */
export function toDayjsLocale(language: string | undefined): 'en' | 'id' | 'ms' {
  const base = (language ?? 'en').toLowerCase().split(/[-_]/)[0];
  return base === 'id' || base === 'ms' ? base : 'en';
}

/** Parses a stored date strictly; undefined for anything that is not a real `YYYY-MM-DD` day. */
export function parseIsoDate(value: unknown): Dayjs | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = dayjs(value, STORED_FORMAT, true);
  return parsed.isValid() ? parsed : undefined;
}

/** True when `value` is a real calendar day written as `YYYY-MM-DD`. */
export function isIsoDate(value: unknown): value is string {
  return parseIsoDate(value) !== undefined;
}

/** Formats a day for storage. */
export function toIsoDate(date: Dayjs | Date): string {
  return dayjs(date).format(STORED_FORMAT);
}

/** Today's date (local calendar) as `YYYY-MM-DD`. */
export function todayIso(now: Date = new Date()): string {
  return toIsoDate(now);
}

/** Shows a stored date as `05 Jan 2025` with the month in `language`; '' for an empty or invalid value. */
export function formatDisplayDate(value: string | null | undefined, language?: string): string {
  const parsed = parseIsoDate(value);
  return parsed ? parsed.locale(toDayjsLocale(language)).format(DISPLAY_FORMAT) : '';
}

/** True when `iso` lies within the bounds (inclusive); string order equals date order for `YYYY-MM-DD`. */
export function isWithinBounds(iso: string, bounds: DateBounds = {}): boolean {
  if (bounds.min && isIsoDate(bounds.min) && iso < bounds.min) return false;
  if (bounds.max && isIsoDate(bounds.max) && iso > bounds.max) return false;
  return true;
}

/**
 * The weeks shown for the month containing `monthOf`: Monday to Sunday rows covering the whole
 * month, padded with the neighbouring months' days (always 6 rows so the grid does not jump).
 */
export function buildMonthGrid(monthOf: string, today: string = todayIso(), bounds: DateBounds = {}): CalendarDay[][] {
  const first = (parseIsoDate(monthOf) ?? dayjs()).startOf('month');
  const mondayOffset = (first.day() + 6) % 7;
  const start = first.subtract(mondayOffset, 'day');
  const weeks: CalendarDay[][] = [];
  for (let week = 0; week < 6; week += 1) {
    const row: CalendarDay[] = [];
    for (let weekday = 0; weekday < 7; weekday += 1) {
      const date = start.add(week * 7 + weekday, 'day');
      const iso = toIsoDate(date);
      row.push({
        iso,
        day: date.date(),
        inMonth: date.month() === first.month(),
        isToday: iso === today,
        selectable: isWithinBounds(iso, bounds),
      });
    }
    weeks.push(row);
  }
  return weeks;
}

/** Weekday names Monday first, in `language`: `short` for column headers, `long` for screen readers. */
export function weekdayNames(language?: string): { short: string; long: string }[] {
  const data = dayjs().locale(toDayjsLocale(language)).localeData();
  const short = data.weekdaysMin();
  const long = data.weekdays();
  return [1, 2, 3, 4, 5, 6, 0].map((index) => ({ short: short[index] ?? '', long: long[index] ?? '' }));
}

/** Month name and year of the month containing `monthOf`, e.g. 'January 2025', in `language`. */
export function monthTitle(monthOf: string, language?: string): string {
  const date = parseIsoDate(monthOf) ?? dayjs();
  return date.locale(toDayjsLocale(language)).format('MMMM YYYY');
}

/** Full spoken form of a day for screen readers, e.g. 'Sunday, 5 January 2025', in `language`. */
export function spokenDate(iso: string, language?: string): string {
  const date = parseIsoDate(iso);
  return date ? date.locale(toDayjsLocale(language)).format('dddd, D MMMM YYYY') : '';
}

/** A keyboard move in the day grid. */
export type CalendarMove =
  | 'previousDay'
  | 'nextDay'
  | 'previousWeek'
  | 'nextWeek'
  | 'weekStart'
  | 'weekEnd'
  | 'previousMonth'
  | 'nextMonth'
  | 'previousYear'
  | 'nextYear';

/**
 * The calendar move a key press asks for (the WAI-ARIA date picker dialog pattern): arrows by day
 * and week, Home/End to the week's ends, Page Up/Down by month, with Shift by year.
 */
export function moveForKey(key: string, shiftKey = false): CalendarMove | undefined {
  switch (key) {
    case 'ArrowLeft':
      return 'previousDay';
    case 'ArrowRight':
      return 'nextDay';
    case 'ArrowUp':
      return 'previousWeek';
    case 'ArrowDown':
      return 'nextWeek';
    case 'Home':
      return 'weekStart';
    case 'End':
      return 'weekEnd';
    case 'PageUp':
      return shiftKey ? 'previousYear' : 'previousMonth';
    case 'PageDown':
      return shiftKey ? 'nextYear' : 'nextMonth';
    default:
      return undefined;
  }
}

/**
 * The day a move lands on from `iso`. Month and year moves keep the day of the month, clamped to
 * the target month's length (31 Jan + 1 month = 28 or 29 Feb).
 */
export function moveDate(iso: string, move: CalendarMove): string {
  const date = parseIsoDate(iso) ?? dayjs();
  const weekday = (date.day() + 6) % 7;
  const moved = {
    previousDay: () => date.subtract(1, 'day'),
    nextDay: () => date.add(1, 'day'),
    previousWeek: () => date.subtract(1, 'week'),
    nextWeek: () => date.add(1, 'week'),
    weekStart: () => date.subtract(weekday, 'day'),
    weekEnd: () => date.add(6 - weekday, 'day'),
    previousMonth: () => date.subtract(1, 'month'),
    nextMonth: () => date.add(1, 'month'),
    previousYear: () => date.subtract(1, 'year'),
    nextYear: () => date.add(1, 'year'),
  }[move]();
  return toIsoDate(moved);
}

/** Moves `iso` into the bounds: the nearest allowed day when it lies outside them. */
export function clampToBounds(iso: string, bounds: DateBounds = {}): string {
  if (bounds.min && isIsoDate(bounds.min) && iso < bounds.min) return bounds.min;
  if (bounds.max && isIsoDate(bounds.max) && iso > bounds.max) return bounds.max;
  return iso;
}

/** A rule between two fields (a descriptor's `comparisons` entry): `field (operator) other`. */
export interface DateRule {
  field: string;
  operator: 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
  other: string;
}

function tighten(bounds: DateBounds, side: 'min' | 'max', iso: string): DateBounds {
  const current = bounds[side];
  const tighter = !current || (side === 'min' ? iso > current : iso < current);
  return tighter ? { ...bounds, [side]: iso } : bounds;
}

/**
 * The days `field` may take given rules between it and other date fields and those fields'
 * current values: for `end_date gte start_date`, the end date's minimum is the start date and the
 * start date's maximum is the end date, so the calendar enforces the rule from both sides.
 * @example boundsFromRules('end_date', [{ field: 'end_date', operator: 'gte', other: 'start_date' }], { start_date: '2025-01-10' }) // { min: '2025-01-10' }
 */
export function boundsFromRules(field: string, rules: readonly DateRule[], values: Record<string, unknown>): DateBounds {
  let bounds: DateBounds = {};
  for (const rule of rules) {
    const mine = rule.field === field;
    if (!mine && rule.other !== field) continue;
    const otherValue = values[mine ? rule.other : rule.field];
    if (!isIsoDate(otherValue)) continue;
    // Seen from the other side, `field (op) other` becomes `other (reversed op) field`.
    const operator = mine ? rule.operator : ({ gt: 'lt', gte: 'lte', lt: 'gt', lte: 'gte', eq: 'eq' } as const)[rule.operator];
    if (operator === 'gte' || operator === 'eq') bounds = tighten(bounds, 'min', otherValue);
    if (operator === 'gt') bounds = tighten(bounds, 'min', moveDate(otherValue, 'nextDay'));
    if (operator === 'lte' || operator === 'eq') bounds = tighten(bounds, 'max', otherValue);
    if (operator === 'lt') bounds = tighten(bounds, 'max', moveDate(otherValue, 'previousDay'));
  }
  return bounds;
}
