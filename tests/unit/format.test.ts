import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatInputNumber,
  formatMoney,
  formatNumber,
  formatScore,
  intlLocale,
  parseMoment,
  timeZoneLabel,
} from '../../src/shared/format.js';

/** Intl may put a no-break or narrow space in a time or a unit: compare with plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ');

describe('the shared formatter', () => {
  it('formats counts and scores in the reader’s language, never in English for id', () => {
    expect(formatNumber(200000, 'en')).toBe('200,000');
    expect(formatNumber(200000, 'id')).toBe('200.000');
    expect(formatNumber(200000, 'ms')).toBe('200,000');
    expect(formatScore(85.25, 'id')).toBe('85,25');
    expect(formatScore(85.256, 'en')).toBe('85.26');
    expect(formatScore(null, 'ms')).toBe('–');
    expect(formatInputNumber(8.5, 'id')).toBe('8,5');
    expect(formatInputNumber(1234.5, 'id')).toBe('1234,5');
    expect(intlLocale('ms-MY')).toBe('ms-MY');
    expect(intlLocale('fr')).toBe('en-US');
  });

  it('writes the home currencies with their local symbol and no space', () => {
    expect(formatMoney(25000, 'IDR', 'id')).toBe('Rp25.000');
    expect(formatMoney(25000, 'MYR', 'ms')).toBe('RM25,000.00');
    expect(formatMoney(25000.5, 'myr', 'id')).toBe('RM25.000,50');
    expect(plain(formatMoney(25000, 'USD', 'id'))).toBe('US$25.000,00');
    expect(formatMoney(1, 'XX', 'en')).toBe('XX 1');
  });

  it('writes sizes with the unit and the language’s decimal separator', () => {
    expect(plain(formatBytes(1.5 * 1024 * 1024, 'id'))).toBe('1,5 MB');
    expect(plain(formatBytes(512, 'en'))).toBe('512 byte');
  });

  it('shows a moment in the given zone with the zone named; a calendar date as written', () => {
    expect(parseMoment('2025-01-05 10:00:00')?.toISOString()).toBe('2025-01-05T10:00:00.000Z');
    expect(parseMoment('nonsense')).toBeNull();
    expect(plain(formatDateTime('2025-01-05T10:00:00Z', 'id', { timeZone: 'Asia/Jakarta' }))).toBe('5 Januari 2025 pukul 17.00 WIB');
    expect(plain(formatDateTime('2025-01-05T10:00:00Z', 'en', { timeZone: 'UTC' }))).toBe('January 5, 2025 at 10:00 AM UTC');
    expect(formatDate('2025-01-05T23:30:00Z', 'en', { timeZone: 'Asia/Kuala_Lumpur' })).toBe('January 6, 2025');
    // A calendar date is that date wherever the reader is.
    expect(formatDate('2025-01-05', 'ms', { timeZone: 'America/Los_Angeles' })).toBe('5 Januari 2025');
    expect(formatDateTime('2025-01-05', 'en', { timeZone: 'Asia/Jakarta' })).toBe('January 5, 2025');
    expect(formatDateTime(null, 'en')).toBeNull();
    expect(timeZoneLabel('id', 'Asia/Jakarta')).toBe('WIB');
  });
});
