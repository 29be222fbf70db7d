import { Flex, TextField } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { type CurrencyCode, DEFAULT_CURRENCY, findCurrency } from './currencies.js';
import { CurrencySelector } from './currency-selector.js';

/** Props of {@link AmountInput}. */
export interface AmountInputProps {
  /** The stored number; `undefined` when empty. */
  amount: number | null | undefined;
  onAmountChange: (amount: number | undefined) => void;
  /** The paired currency code; give `onCurrencyChange` to show the currency selector beside the number. */
  currency?: string | null | undefined;
  onCurrencyChange?: ((code: CurrencyCode) => void) | undefined;
  /** Without a selector, show the currency code inside the box (default true). */
  showCode?: boolean | undefined;
  id?: string | undefined;
  /** Accessible name of the number box ('Prize money'); the selector is named '{label} currency'. */
  label?: string | undefined;
  /** Lowest allowed amount; 0 or more forbids typing a minus sign. */
  min?: number | undefined;
  /** Digits allowed after the decimal point; defaults to the currency's (0 for JPY, else 2). */
  decimals?: number | undefined;
  disabled?: boolean | undefined;
  readOnly?: boolean | undefined;
  required?: boolean | undefined;
  invalid?: boolean | undefined;
  placeholder?: string | undefined;
  'aria-describedby'?: string | undefined;
  onBlur?: (() => void) | undefined;
}

/** The pattern a partly typed amount must keep matching: digits, one point, at most `decimals` after it. */
export function amountPattern(decimals: number, allowNegative: boolean): RegExp {
  const sign = allowNegative ? '-?' : '';
  const fraction = decimals > 0 ? `(\\.\\d{0,${decimals}})?` : '';
  return new RegExp(`^${sign}\\d*${fraction}$`);
}

/** The number a typed text stands for, or undefined for '', '-' or '.'. */
export function parseAmount(text: string): number | undefined {
  if (!/\d/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The amount input: numeric only (digits, one decimal point, the currency's decimals,
 * a minus only when `min` allows it), storing a number; with the currency selector beside it when
 * a descriptor pairs them, storing the currency code (USD when none was chosen).
 */
export function AmountInput(props: AmountInputProps): React.ReactElement {
  const { t } = useTranslation();
  const currency = findCurrency(props.currency ?? DEFAULT_CURRENCY) ?? findCurrency(DEFAULT_CURRENCY)!;
  const decimals = props.decimals ?? currency.decimals;
  const pattern = amountPattern(decimals, props.min === undefined || props.min < 0);
  const [text, setText] = useState(() => (props.amount == null ? '' : String(props.amount)));

  // Follow the stored number when it changes from outside (a reset, a reload), not while typing it.
  useEffect(() => {
    setText((current) => (parseAmount(current) === (props.amount ?? undefined) ? current : props.amount == null ? '' : String(props.amount)));
  }, [props.amount]);

  const onChange = (event: React.ChangeEvent<HTMLInputElement>) => {
    const next = event.target.value.replace(',', '.').trim();
    if (!pattern.test(next)) return;
    setText(next);
    const amount = parseAmount(next);
    if (amount !== (props.amount ?? undefined)) props.onAmountChange(amount);
  };

  return (
    <Flex gap="2" align="center" width="100%">
      {props.onCurrencyChange && (
        <CurrencySelector
          value={currency.code}
          onChange={props.onCurrencyChange}
          label={props.label ? t('common.amount.currencyOf', { label: props.label }) : t('common.currency.label')}
          disabled={props.disabled || props.readOnly}
          invalid={props.invalid}
        />
      )}
      <TextField.Root
        id={props.id}
        type="text"
        inputMode={decimals > 0 ? 'decimal' : 'numeric'}
        autoComplete="off"
        value={text}
        onChange={onChange}
        onBlur={props.onBlur}
        aria-label={props.label}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props['aria-describedby']}
        color={props.invalid ? 'red' : undefined}
        disabled={props.disabled}
        readOnly={props.readOnly}
        required={props.required}
        placeholder={props.placeholder ?? (decimals > 0 ? `0.${'0'.repeat(decimals)}` : '0')}
        style={{ flexGrow: 1, fontVariantNumeric: 'tabular-nums' }}
      >
        {!props.onCurrencyChange && props.currency && props.showCode !== false && <TextField.Slot>{currency.code}</TextField.Slot>}
      </TextField.Root>
    </Flex>
  );
}
