import type { i18n as I18n } from 'i18next';
import { formatNumber as formatIn } from '../../shared/format.js';

/**
 * A number in the reader's language (the shared formatter, src/shared/format.ts, with the i18next
 * language), so a figure shown on its own reads like the counts inside texts (`{{count, number}}`):
 * 1,234 in English, 1.234 in Indonesian.
 */
export function formatNumber(i18n: I18n, value: number, options?: { maximumFractionDigits?: number; minimumFractionDigits?: number }): string {
  return formatIn(value, i18n.resolvedLanguage ?? i18n.language ?? 'en', options);
}
