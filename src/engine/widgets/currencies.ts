/**
 * The currencies the console offers and the rules for listing and searching them
 * as the selector applies them: MYR first, USD second, the rest alphabetical by code; USD selected by default;
 * search matches the code or the name, case-insensitive. Pure data and functions, no React.
 */

/** ISO 4217 codes of the supported currencies. */
export type CurrencyCode = 'USD' | 'EUR' | 'CNY' | 'JPY' | 'BRL' | 'GBP' | 'AUD' | 'CAD' | 'INR' | 'ZAR' | 'CHF' | 'NZD' | 'MYR' | 'IDR';

/**
 * One currency option. `flag` is an emoji, or the text `myr` for the local currency,
 * whose flag is drawn from `flagImage` instead. `name` is the English name; `nameKey` is the
 * i18n key of the name in the chosen language.
 */
export interface CurrencyOption {
  code: CurrencyCode;
  name: string;
  nameKey: string;
  flag: string;
  flagImage?: string;
  /** Digits after the decimal point in amounts of this currency. */
  decimals: number;
}

function currency(code: CurrencyCode, name: string, flag: string, decimals = 2, flagImage?: string): CurrencyOption {
  return { code, name, nameKey: `common.currencies.${code}`, flag, decimals, ...(flagImage ? { flagImage } : {}) };
}

/** The supported currencies in the spec's listing order. */
const SPEC_CURRENCIES: readonly CurrencyOption[] = [
  currency('USD', 'United States Dollar', '🇺🇸'),
  currency('EUR', 'Euro', '🇪🇺'),
  currency('CNY', 'Yuan', '🇨🇳'),
  currency('JPY', 'Japanese Yen', '🇯🇵', 0),
  currency('BRL', 'Brazilian Real', '🇧🇷'),
  currency('GBP', 'British Pound', '🇬🇧'),
  currency('AUD', 'Australian Dollar', '🇦🇺'),
  currency('CAD', 'Canadian Dollar', '🇨🇦'),
  currency('INR', 'Indian Rupee', '🇮🇳'),
  currency('ZAR', 'South African Rand', '🇿🇦'),
  currency('CHF', 'Swiss Franc', '🇨🇭'),
  currency('NZD', 'New Zealand Dollar', '🇳🇿'),
  currency('MYR', 'Ringgit', 'myr', 2, '/flags/my.svg'),
  // Beyond the spec's list: an Indonesian programme gives prizes in rupiah, which has no minor unit in use.
  currency('IDR', 'Indonesian Rupiah', '🇮🇩', 0),
];

/** Codes pinned to the top of the list, in this order; every other currency follows by code. */
const PINNED: readonly CurrencyCode[] = ['MYR', 'USD'];

/** The code selected when nothing has been chosen yet. */
export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

/** Orders currencies as the selector lists them: MYR, USD, then the rest alphabetically by code. */
export function orderCurrencies(list: readonly CurrencyOption[]): CurrencyOption[] {
  const rank = (code: CurrencyCode) => {
    const index = PINNED.indexOf(code);
    return index === -1 ? PINNED.length : index;
  };
  return [...list].sort((a, b) => rank(a.code) - rank(b.code) || a.code.localeCompare(b.code));
}

/** Every supported currency, in listing order. */
export const CURRENCIES: readonly CurrencyOption[] = Object.freeze(orderCurrencies(SPEC_CURRENCIES));

/** All supported codes, in listing order (for a JSON Schema `enum`). */
export const CURRENCY_CODES: readonly CurrencyCode[] = CURRENCIES.map((c) => c.code);

/** True when `code` is one of the supported currency codes. */
export function isCurrencyCode(code: unknown): code is CurrencyCode {
  return typeof code === 'string' && (CURRENCY_CODES as readonly string[]).includes(code);
}

/** The option for `code`, or undefined when it is not supported. */
export function findCurrency(code: string | null | undefined): CurrencyOption | undefined {
  return CURRENCIES.find((c) => c.code === code);
}

/**
 * Filters `list` to the currencies whose code or name contains `search`, ignoring case and
 * surrounding spaces; keeps the list's order. `nameOf` gives the name shown in the chosen language,
 * which is matched as well as the English name.
 * @example searchCurrencies(CURRENCIES, 'eur') // [EUR]
 */
export function searchCurrencies(list: readonly CurrencyOption[], search: string, nameOf?: (option: CurrencyOption) => string): CurrencyOption[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return [...list];
  return list.filter((option) => {
    const haystacks = [option.code, option.name, nameOf?.(option) ?? ''];
    return haystacks.some((text) => text.toLocaleLowerCase().includes(needle));
  });
}
