import { Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { type CellProps, toText } from './cell-types.js';

/** An amount and, when known, its ISO 4217 currency code. */
export interface Money {
  amount: number;
  currency?: string;
}

function toAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value.trim());
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

/**
 * The money in a stored value: an object `{ amount, currency }` (the amount-currency widget's
 * value; the amount may come as a numeric string from a decimal column) or a bare number. `null`
 * when there is no amount (`{ currency: 'USD' }` alone is no money): the field shows as empty.
 *
 * @example moneyOf({ amount: 25000.5, currency: 'MYR' }) // { amount: 25000.5, currency: 'MYR' }
 */
export function moneyOf(value: unknown): Money | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const amount = toAmount(record.amount);
    if (amount === null) return null;
    const currency = typeof record.currency === 'string' && record.currency.trim() !== '' ? record.currency.trim().toUpperCase() : undefined;
    return currency ? { amount, currency } : { amount };
  }
  const amount = toAmount(value);
  return amount === null ? null : { amount };
}

/**
 * Money in the reader's language with the currency code before the amount and the currency's own
 * decimals ('MYR 25,000.50', 'JPY 25,000'; Indonesian 'MYR 25.000,50'). An amount without a
 * currency, or with a code `Intl` refuses, is a plain localized number (after the code if any).
 */
export function formatMoney(money: Money, language: string | undefined): string {
  const locale = language || 'en';
  if (money.currency) {
    try {
      return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency, currencyDisplay: 'code' }).format(money.amount);
    } catch {
      // A malformed code (not three letters): keep the amount readable rather than fail the page.
    }
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(money.amount);
  return money.currency ? `${money.currency} ${number}` : number;
}

/** An amount with its currency ('MYR 25,000.50'); `FieldValue` shows 'Not provided' when there is no amount. */
export function MoneyCell({ value }: CellProps): ReactElement {
  const { i18n } = useTranslation();
  const money = moneyOf(value);
  if (!money) return <>{toText(value)}</>;
  return <Text style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{formatMoney(money, i18n.language)}</Text>;
}
