import type { i18n as I18n } from 'i18next';

/**
 * A number in the reader's language through i18next's `number` formatter (the one `{{count, number}}`
 * uses in the locale files, `Intl.NumberFormat` of the i18next language), so a figure shown on its
 * own reads like the counts inside texts: 1,234 in English, 1.234 in Indonesian.
 */
export function formatNumber(i18n: I18n, value: number): string {
  const formatter = i18n.services.formatter;
  const language = i18n.resolvedLanguage ?? i18n.language;
  return formatter ? formatter.format(value, 'number', language, {}) : String(value);
}
