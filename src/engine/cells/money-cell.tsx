import { Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { formatMoney as formatMoneyIn, formatNumber } from '../../shared/format.js';
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
 * Money in the reader's language through the shared formatter (src/shared/format.ts): the home
 * currencies with their local symbol ('Rp25.000', 'RM25,000.50'), any other with its symbol and
 * its own decimals ('US$25,000.50'). An amount without a currency is a plain localized number.
 */
export function formatMoney(money: Money, language: string | undefined): string {
  const lng = language || 'en';
  return money.currency ? formatMoneyIn(money.amount, money.currency, lng) : formatNumber(money.amount, lng);
}

/** An amount with its currency ('MYR 25,000.50'); `FieldValue` shows 'Not provided' when there is no amount. */
export function MoneyCell({ value }: CellProps): ReactElement {
  const { i18n } = useTranslation();
  const money = moneyOf(value);
  if (!money) return <>{toText(value)}</>;
  return <Text style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{formatMoney(money, i18n.language)}</Text>;
}
