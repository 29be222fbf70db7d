import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrencyCode } from '../../src/engine/widgets/currencies.js';
import { CurrencySelector } from '../../src/engine/widgets/currency-selector.js';
import { renderWidget } from '../helpers/widgets-render.js';

function Harness({ initial, onChange }: { initial?: CurrencyCode; onChange?: (code: CurrencyCode) => void }) {
  const [value, setValue] = useState<CurrencyCode | undefined>(initial);
  return (
    <CurrencySelector
      label="Currency"
      value={value}
      onChange={(code) => {
        setValue(code);
        onChange?.(code);
      }}
    />
  );
}

const trigger = () => screen.getByRole('button', { name: /^Currency: / });
const optionCodes = () => screen.getAllByRole('option').map((o) => o.textContent?.match(/[A-Z]{3}/)?.[0]);
const activeOption = () => {
  const id = screen.getByRole('combobox').getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

async function openList(options: Parameters<typeof renderWidget>[1] = {}, initial?: CurrencyCode) {
  const onChange = vi.fn();
  const rendered = await renderWidget(<Harness initial={initial} onChange={onChange} />, options);
  await rendered.user.click(trigger());
  await screen.findByRole('listbox', { name: options.language === 'ms' ? 'Mata wang' : 'Currencies' });
  return { ...rendered, onChange };
}

afterEach(() => vi.useRealTimers());

describe('CurrencySelector', () => {
  it('lists MYR first, USD second, then the rest by code', async () => {
    await openList();
    expect(optionCodes()).toEqual(['MYR', 'USD', 'AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'EUR', 'GBP', 'IDR', 'INR', 'JPY', 'NZD', 'ZAR']);
    expect(screen.getByRole('option', { name: 'MYR Ringgit' }).querySelector('img')?.getAttribute('src')).toBe('/flags/my.svg');
  });

  it('selects USD by default', async () => {
    await openList();
    expect(trigger().getAttribute('aria-label')).toBe('Currency: USD United States Dollar');
    expect(screen.getByRole('option', { name: 'USD United States Dollar' }).getAttribute('aria-selected')).toBe('true');
    expect(activeOption()?.textContent).toContain('USD');
  });

  it('searches by code in any case', async () => {
    const { user } = await openList();
    await user.type(screen.getByRole('combobox'), 'gBp');
    expect(screen.getAllByRole('option')).toHaveLength(1);
    expect(screen.getByRole('option', { name: 'GBP British Pound' })).toBeTruthy();
  });

  it('searches by name in any case', async () => {
    const { user } = await openList();
    await user.type(screen.getByRole('combobox'), 'DoLLaR');
    expect(optionCodes()).toEqual(['USD', 'AUD', 'CAD', 'NZD']);
    await user.clear(screen.getByRole('combobox'));
    await user.type(screen.getByRole('combobox'), 'yen');
    expect(optionCodes()).toEqual(['JPY']);
  });

  it('says so when nothing matches', async () => {
    const { user } = await openList();
    await user.type(screen.getByRole('combobox'), 'bitcoin');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('No currencies found matching "bitcoin"');
  });

  it('keeps the list at most 15rem high', async () => {
    await openList();
    expect(screen.getByRole('listbox').style.maxHeight).toBe('15rem');
    expect(screen.getByRole('listbox').style.overflowY).toBe('auto');
  });

  it('focuses the search box 100 ms after opening', async () => {
    await renderWidget(<Harness />);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => {
      fireEvent.click(trigger());
    });
    const search = screen.getByRole('combobox');
    act(() => vi.advanceTimersByTime(99));
    expect(document.activeElement).not.toBe(search);
    act(() => vi.advanceTimersByTime(1));
    expect(document.activeElement).toBe(search);
  });

  it('moves with the arrow keys, wrapping around at both ends', async () => {
    const { user } = await openList();
    const search = screen.getByRole('combobox');
    await waitFor(() => expect(document.activeElement).toBe(search));
    await user.keyboard('{ArrowUp}');
    expect(activeOption()?.textContent).toContain('MYR');
    await user.keyboard('{ArrowUp}');
    expect(activeOption()?.textContent).toContain('ZAR');
    await user.keyboard('{ArrowDown}');
    expect(activeOption()?.textContent).toContain('MYR');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeOption()?.textContent).toContain('AUD');
  });

  it('selects the active option with Enter, closes and returns focus to the button', async () => {
    const { user, onChange } = await openList();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox')));
    await user.keyboard('{ArrowUp}{Enter}');
    expect(onChange).toHaveBeenCalledWith('MYR');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(trigger().getAttribute('aria-label')).toBe('Currency: MYR Ringgit');
    await waitFor(() => expect(document.activeElement).toBe(trigger()));
  });

  it('closes with Escape without changing the value and returns focus to the button', async () => {
    const { user, onChange } = await openList({}, 'EUR');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox')));
    await user.keyboard('{ArrowDown}{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(onChange).not.toHaveBeenCalled();
    expect(trigger().getAttribute('aria-label')).toBe('Currency: EUR Euro');
    await waitFor(() => expect(document.activeElement).toBe(trigger()));
  });

  it('selects with a click', async () => {
    const { user, onChange } = await openList();
    await user.click(screen.getByRole('option', { name: 'CHF Swiss Franc' }));
    expect(onChange).toHaveBeenCalledWith('CHF');
  });

  it('speaks Malay: translated names, search on them, and the no-match text', async () => {
    const { user } = await openList({ language: 'ms' });
    expect(within(screen.getByRole('listbox')).getByRole('option', { name: 'USD Dolar Amerika Syarikat' })).toBeTruthy();
    await user.type(screen.getByRole('combobox'), 'paun');
    expect(optionCodes()).toEqual(['GBP']);
    await user.clear(screen.getByRole('combobox'));
    await user.type(screen.getByRole('combobox'), 'zzz');
    expect(screen.getByRole('status').textContent).toBe('Tiada mata wang yang sepadan dengan "zzz"');
  });

  it('cannot be opened when disabled', async () => {
    const { user } = await renderWidget(<CurrencySelector label="Currency" disabled onChange={() => {}} />);
    await user.click(trigger());
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
