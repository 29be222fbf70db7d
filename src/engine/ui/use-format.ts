import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatPercent,
  formatScore,
  timeZoneLabel,
  userTimeZone,
} from '../../shared/format.js';
import { useTranslation } from '../i18n/use-translation.js';

/** The shared formatters (src/shared/format.ts) bound to the reader's language, for a screen. */
export interface Formatters {
  number(value: number, options?: { maximumFractionDigits?: number; minimumFractionDigits?: number }): string;
  score(value: number | null | undefined): string;
  percent(ratio: number): string;
  money(amount: number, currency: string): string;
  bytes(bytes: number): string;
  /** A moment in the reader's zone, the zone named after the time; '' when absent. */
  dateTime(value: string | number | Date | null | undefined, style?: 'long' | 'short'): string;
  date(value: string | number | Date | null | undefined, style?: 'long' | 'short'): string;
  /** The reader's zone as the times name it ('WIB', 'GMT+8'). */
  zone(): string;
}

/**
 * Numbers, money, sizes, dates and times in the reader's language and time zone.
 *
 * @example const f = useFormat(); t('results.finalised', { date: f.dateTime(at) })
 */
export function useFormat(): Formatters {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return {
    number: (value, options) => formatNumber(value, lng, options),
    score: (value) => formatScore(value, lng),
    percent: (ratio) => formatPercent(ratio, lng),
    money: (amount, currency) => formatMoney(amount, currency, lng),
    bytes: (bytes) => formatBytes(bytes, lng),
    dateTime: (value, style) => formatDateTime(value, lng, { style }) ?? '',
    date: (value, style) => formatDate(value, lng, { style }) ?? '',
    zone: () => timeZoneLabel(lng, userTimeZone()),
  };
}
