import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AmountInput, amountPattern, parseAmount } from '../../src/engine/widgets/amount-input.js';
import type { CurrencyCode } from '../../src/engine/widgets/currencies.js';
import { renderWidget } from '../helpers/widgets-render.js';

function Harness(props: {
  amount?: number;
  currency?: CurrencyCode;
  paired?: boolean;
  min?: number;
  onAmount?: (n: number | undefined) => void;
  onCurrency?: (c: CurrencyCode) => void;
}) {
  const [amount, setAmount] = useState<number | undefined>(props.amount);
  const [currency, setCurrency] = useState<CurrencyCode | undefined>(props.currency);
  return (
    <>
      <AmountInput
        label="Prize money"
        amount={amount}
        currency={currency}
        min={props.min}
        onAmountChange={(n) => {
          setAmount(n);
          props.onAmount?.(n);
        }}
        onCurrencyChange={
          props.paired
            ? (c) => {
                setCurrency(c);
                props.onCurrency?.(c);
              }
            : undefined
        }
      />
      <button type="button" onClick={() => setAmount(777)}>
        reset
      </button>
      <output aria-label="stored">{JSON.stringify({ amount, currency })}</output>
    </>
  );
}

async function setup(props: Parameters<typeof Harness>[0] = {}, language: 'en' | 'id' | 'ms' = 'en') {
  const onAmount = vi.fn();
  const onCurrency = vi.fn();
  const rendered = await renderWidget(<Harness min={0} {...props} onAmount={onAmount} onCurrency={onCurrency} />, { language });
  const box = screen.getByRole('textbox', { name: 'Prize money' }) as HTMLInputElement;
  const stored = () => JSON.parse(screen.getByRole('status', { name: 'stored' }).textContent ?? '{}');
  return { ...rendered, onAmount, onCurrency, box, stored };
}

describe('AmountInput', () => {
  it('stores the typed number', async () => {
    const { user, box, stored } = await setup();
    await user.type(box, '1250.5');
    expect(box.value).toBe('1250.5');
    expect(stored().amount).toBe(1250.5);
    expect(box.getAttribute('inputmode')).toBe('decimal');
  });

  it('accepts digits only: letters, a second point and a third decimal are refused', async () => {
    const { user, box, stored } = await setup();
    await user.type(box, 'a1b2.c3.45e');
    expect(box.value).toBe('12.34');
    expect(stored().amount).toBe(12.34);
  });

  it('refuses a minus sign when the minimum is not negative, allows it otherwise', async () => {
    const first = await setup({ min: 0 });
    await first.user.type(first.box, '-5');
    expect(first.box.value).toBe('5');
    first.unmount();
    const second = await setup({ min: -100 });
    await second.user.type(second.box, '-5');
    expect(second.stored().amount).toBe(-5);
  });

  it('stores nothing when emptied', async () => {
    const { user, box, onAmount, stored } = await setup({ amount: 40 });
    expect(box.value).toBe('40');
    await user.clear(box);
    expect(onAmount).toHaveBeenLastCalledWith(undefined);
    expect(stored().amount).toBeUndefined();
  });

  it('follows a stored number changed from outside', async () => {
    const { user, box } = await setup({ amount: 40 });
    await user.click(screen.getByRole('button', { name: 'reset' }));
    expect(box.value).toBe('777');
  });

  it('pairs a currency selector, USD by default, storing the chosen code', async () => {
    const { user, box, onCurrency, stored } = await setup({ paired: true });
    const selector = screen.getByRole('button', { name: 'Prize money currency: USD United States Dollar' });
    await user.click(selector);
    await user.click(await screen.findByRole('option', { name: 'MYR Ringgit' }));
    expect(onCurrency).toHaveBeenCalledWith('MYR');
    await user.type(box, '5000');
    expect(stored()).toEqual({ amount: 5000, currency: 'MYR' });
  });

  it('takes no decimals for a currency without them', async () => {
    const { user, box, stored } = await setup({ paired: true, currency: 'JPY' });
    await user.type(box, '12.5');
    expect(box.value).toBe('125');
    expect(stored().amount).toBe(125);
    expect(box.getAttribute('inputmode')).toBe('numeric');
  });

  it('names the selector in the chosen language', async () => {
    await setup({ paired: true }, 'ms');
    await waitFor(() => expect(screen.getByRole('button', { name: /^Mata wang Prize money: USD Dolar Amerika Syarikat$/ })).toBeTruthy());
  });

  it('validates partial input with the pattern and parses only real numbers', () => {
    expect(amountPattern(2, false).test('12.')).toBe(true);
    expect(amountPattern(2, false).test('-1')).toBe(false);
    expect(amountPattern(0, true).test('-12')).toBe(true);
    expect(amountPattern(0, true).test('1.')).toBe(false);
    expect(parseAmount('.')).toBeUndefined();
    expect(parseAmount('-')).toBeUndefined();
    expect(parseAmount('12.')).toBe(12);
  });
});

describe('the amount-currency RJSF template', { timeout: 30_000 }, () => {
  it('pairs the currency selector with the amount and stores both, USD once an amount is typed', async () => {
    // withTheme by its own module, as the engine imports it (@rjsf/core's index needs a validator the console does not ship).
    const { default: withTheme } = await import('@rjsf/core/lib/withTheme.js');
    const { templates, widgets } = await import('../../src/engine/rjsf-radix/index.js');
    const { createFormValidator } = await import('../../src/engine/form/schema-validator.js');
    const Form = withTheme({ widgets, templates });
    const schema = {
      type: 'object' as const,
      properties: {
        prize_money: {
          type: 'object' as const,
          title: 'Prize money',
          required: ['currency'],
          properties: {
            amount: { type: 'number' as const, minimum: 0 },
            currency: { type: 'string' as const, enum: ['MYR', 'USD', 'EUR'] },
          },
        },
      },
    };
    const uiSchema = {
      prize_money: {
        'ui:ObjectFieldTemplate': 'amount-currency',
        currency: { 'ui:widget': 'currency', 'ui:title': 'common.currency.label', 'ui:options': { label: false } },
        amount: { 'ui:widget': 'amount', 'ui:title': 'common.amount.label', 'ui:options': { label: false } },
      },
    };
    let data: Record<string, unknown> = {};
    function Host() {
      const [formData, setFormData] = useState<Record<string, unknown>>({});
      return (
        <Form
          schema={schema}
          uiSchema={uiSchema}
          validator={createFormValidator()}
          formData={formData}
          onChange={(e) => {
            data = e.formData;
            setFormData(e.formData);
          }}
        >
          <span />
        </Form>
      );
    }
    const { user } = await renderWidget(<Host />);
    const group = screen.getByRole('group', { name: 'Prize money' });
    const selector = screen.getByRole('button', { name: 'Currency: USD United States Dollar' });
    expect(group.contains(selector)).toBe(true);
    expect(data.prize_money).toBeUndefined();
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '150.5');
    await waitFor(() => expect(data.prize_money).toEqual({ amount: 150.5, currency: 'USD' }));
    await user.click(selector);
    await user.click(await screen.findByRole('option', { name: 'EUR Euro' }));
    await waitFor(() => expect(data.prize_money).toEqual({ amount: 150.5, currency: 'EUR' }));
  });
});
