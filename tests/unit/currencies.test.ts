import { describe, expect, it } from 'vitest';
import {
  CURRENCIES,
  CURRENCY_CODES,
  DEFAULT_CURRENCY,
  findCurrency,
  isCurrencyCode,
  orderCurrencies,
  searchCurrencies,
} from '../../src/engine/widgets/currencies.js';

describe('currencies', () => {
  it("lists the spec's 13 currencies and the rupiah, MYR first, USD second, the rest by code", () => {
    expect(CURRENCY_CODES).toEqual(['MYR', 'USD', 'AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'EUR', 'GBP', 'IDR', 'INR', 'JPY', 'NZD', 'ZAR']);
  });

  it('gives each currency its own decimals: none for the rupiah and the yen, two for the others', () => {
    expect(findCurrency('IDR')).toMatchObject({ name: 'Indonesian Rupiah', decimals: 0 });
    expect(findCurrency('JPY')?.decimals).toBe(0);
    expect(findCurrency('MYR')?.decimals).toBe(2);
  });

  it('orders any subset by the same rule', () => {
    const subset = CURRENCIES.filter((c) => ['ZAR', 'USD', 'AUD', 'MYR'].includes(c.code)).reverse();
    expect(orderCurrencies(subset).map((c) => c.code)).toEqual(['MYR', 'USD', 'AUD', 'ZAR']);
  });

  it('selects USD by default', () => {
    expect(DEFAULT_CURRENCY).toBe('USD');
  });

  it('gives each currency its spec name and an emoji flag, the ringgit its own flag image', () => {
    expect(findCurrency('USD')).toMatchObject({ name: 'United States Dollar', flag: '🇺🇸' });
    expect(findCurrency('CNY')?.name).toBe('Yuan');
    expect(findCurrency('MYR')).toMatchObject({ name: 'Ringgit', flag: 'myr', flagImage: '/flags/my.svg' });
    for (const option of CURRENCIES.filter((c) => c.code !== 'MYR')) {
      expect(option.flag).toMatch(/^\p{Regional_Indicator}{2}$/u);
    }
  });

  it('searches by code in any case', () => {
    expect(searchCurrencies(CURRENCIES, 'gbp').map((c) => c.code)).toEqual(['GBP']);
    expect(searchCurrencies(CURRENCIES, 'GbP').map((c) => c.code)).toEqual(['GBP']);
  });

  it('searches by name in any case, keeping the listing order', () => {
    expect(searchCurrencies(CURRENCIES, 'DOLLAR').map((c) => c.code)).toEqual(['USD', 'AUD', 'CAD', 'NZD']);
    expect(searchCurrencies(CURRENCIES, 'ringgit').map((c) => c.code)).toEqual(['MYR']);
  });

  it('matches the translated name when one is given', () => {
    const names: Record<string, string> = { CHF: 'Franc Swiss' };
    expect(searchCurrencies(CURRENCIES, 'franc sw', (c) => names[c.code] ?? c.name).map((c) => c.code)).toEqual(['CHF']);
  });

  it('returns every currency for a blank search and none for a miss', () => {
    expect(searchCurrencies(CURRENCIES, '   ')).toHaveLength(14);
    expect(searchCurrencies(CURRENCIES, 'bitcoin')).toEqual([]);
  });

  it('recognises supported codes only', () => {
    expect(isCurrencyCode('MYR')).toBe(true);
    expect(isCurrencyCode('myr')).toBe(false);
    expect(isCurrencyCode('BTC')).toBe(false);
    expect(isCurrencyCode(7)).toBe(false);
  });
});
