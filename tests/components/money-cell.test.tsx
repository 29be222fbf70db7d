import { Theme } from '@radix-ui/themes';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n, type Language } from '../../src/app/i18n.js';
import { FieldValue, formatMoney, moneyOf } from '../../src/engine/cells/index.js';
import { CELL_KINDS, type FieldDisplay } from '../../src/shared/descriptor/index.js';
import { clientEntities, FakeApi, renderEntityRoutes } from './entity-harness.js';

/** Intl puts a no-break space between the code and the amount; compare with plain spaces. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

const prize: FieldDisplay = { field: 'prize_money', cell: 'money' };

async function renderCell(record: Record<string, unknown>, place: 'list' | 'detail' = 'detail', language: Language = 'en') {
  await i18n.changeLanguage(language);
  return render(
    <I18nextProvider i18n={i18n}>
      <Theme>
        <FieldValue record={record} display={prize} place={place} />
      </Theme>
    </I18nextProvider>,
  );
}

describe('formatMoney', () => {
  it('writes the home currencies with their local symbol and no space, others with their symbol and decimals', () => {
    expect(plain(formatMoney({ amount: 25000.5, currency: 'MYR' }, 'en'))).toBe('RM25,000.50');
    expect(plain(formatMoney({ amount: 25000, currency: 'MYR' }, 'ms'))).toBe('RM25,000.00');
    expect(plain(formatMoney({ amount: 25000, currency: 'IDR' }, 'id'))).toBe('Rp25.000');
    expect(plain(formatMoney({ amount: 15000000, currency: 'IDR' }, 'id'))).toBe('Rp15.000.000');
    expect(plain(formatMoney({ amount: 1200, currency: 'EUR' }, 'en'))).toBe('€1,200.00');
    expect(plain(formatMoney({ amount: 25000, currency: 'JPY' }, 'en'))).toBe('¥25,000');
    expect(plain(formatMoney({ amount: 25000.4, currency: 'JPY' }, 'en'))).toBe('¥25,000');
    expect(plain(formatMoney({ amount: 0, currency: 'USD' }, 'en'))).toBe('$0.00');
    expect(plain(formatMoney({ amount: 25000, currency: 'USD' }, 'id'))).toBe('US$25.000,00');
  });

  it('groups and separates decimals as the chosen language does', () => {
    expect(plain(formatMoney({ amount: 25000.5, currency: 'MYR' }, 'id'))).toBe('RM25.000,50');
    expect(plain(formatMoney({ amount: 25000.5, currency: 'MYR' }, 'ms'))).toBe('RM25,000.50');
  });

  it('keeps the amount readable without a currency or with a malformed code', () => {
    expect(plain(formatMoney({ amount: 1234.5 }, 'en'))).toBe('1,234.5');
    expect(plain(formatMoney({ amount: 1234.5, currency: 'XX' }, 'en'))).toBe('XX 1,234.5');
  });
});

describe('moneyOf', () => {
  it('reads {amount, currency}, numeric strings and bare numbers', () => {
    expect(moneyOf({ amount: 25000.5, currency: 'MYR' })).toEqual({ amount: 25000.5, currency: 'MYR' });
    expect(moneyOf({ amount: '99.90', currency: 'usd' })).toEqual({ amount: 99.9, currency: 'USD' });
    expect(moneyOf(42)).toEqual({ amount: 42 });
  });

  it('finds no money without an amount', () => {
    expect(moneyOf({ currency: 'USD' })).toBeNull();
    expect(moneyOf({ amount: null, currency: 'USD' })).toBeNull();
    expect(moneyOf({ amount: '', currency: 'USD' })).toBeNull();
    expect(moneyOf({ amount: 'lots', currency: 'USD' })).toBeNull();
    expect(moneyOf(null)).toBeNull();
    expect(moneyOf(undefined)).toBeNull();
  });
});

describe('the money cell', { timeout: 30_000 }, () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('is a cell kind descriptors may name', () => {
    expect(CELL_KINDS).toContain('money');
  });

  it('shows the amount with its currency symbol on a detail page and in a list', async () => {
    const { container, unmount } = await renderCell({ prize_money: { amount: 25000.5, currency: 'MYR' } });
    expect(plain(container.textContent)).toBe('RM25,000.50');
    unmount();
    const list = await renderCell({ prize_money: { amount: 3000, currency: 'JPY' } }, 'list');
    expect(plain(list.container.textContent)).toBe('¥3,000');
  });

  it('formats in the chosen language', async () => {
    const { container } = await renderCell({ prize_money: { amount: 25000.5, currency: 'MYR' } }, 'detail', 'id');
    expect(plain(container.textContent)).toBe('RM25.000,50');
  });

  it("says 'Not provided' when there is no prize money or no amount", async () => {
    const none = await renderCell({ prize_money: null });
    expect(screen.getByText('Not provided')).toBeTruthy();
    none.unmount();
    const currencyOnly = await renderCell({ prize_money: { currency: 'USD' } });
    expect(screen.getByText('Not provided')).toBeTruthy();
    expect(plain(currencyOnly.container.textContent)).not.toContain('USD');
    currencyOnly.unmount();
    await renderCell({}, 'detail', 'ms');
    expect(screen.getByText(i18n.t('common.not_provided'))).toBeTruthy();
    expect(i18n.t('common.not_provided')).not.toBe('Not provided');
  });

  it('shows a muted dash for missing money in a list', async () => {
    await renderCell({ prize_money: { currency: 'USD' } }, 'list');
    expect(screen.getByLabelText('Not provided').textContent).toBe('—');
  });
});

/** The text of the detail value beside a label (Radix DataList: dt then dd). */
function valueNextTo(label: HTMLElement): string | null | undefined {
  return label.closest('dt')?.nextElementSibling?.textContent;
}

describe("the category detail page's prize money", { timeout: 30_000 }, () => {
  it('shows the prize money with its currency, or Not provided', async () => {
    const api = new FakeApi(clientEntities());
    const [withPrize, without] = api.seed('categories', [
      {
        name: 'Best Film',
        slug: 'best-film',
        description: 'Moving pictures of all kinds',
        status: 'active',
        prize_money: { amount: 25000.5, currency: 'MYR' },
      },
      { name: 'Best Song', slug: 'best-song', description: 'Songs of every kind and length', status: 'active' },
    ]);
    const first = await renderEntityRoutes(api, `/manage-category/${String(withPrize!.id)}`);
    expect(plain(valueNextTo(await screen.findByText('Prize money')))).toBe('RM25,000.50');
    first.unmount();

    await renderEntityRoutes(api, `/manage-category/${String(without!.id)}`, 'ms');
    expect(valueNextTo(await screen.findByText('Wang hadiah'))).toBe(i18n.t('common.not_provided'));
  });
});
