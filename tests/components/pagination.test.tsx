import { Theme } from '@radix-ui/themes';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../src/app/i18n.js';
import { Pagination } from '../../src/engine/list/pagination.js';
import { pageItems, pageRange } from '../../src/engine/list/pagination-items.js';

const show = (current: number, last: number) =>
  pageItems(current, last)
    .map((item) => (item.kind === 'page' ? String(item.page) : '…'))
    .join(' ');

describe('pageItems', () => {
  it('lists every page when there are at most five', () => {
    expect(show(1, 1)).toBe('1');
    expect(show(3, 5)).toBe('1 2 3 4 5');
  });

  it('puts an ellipsis where pages are hidden and never shows more than five numbers', () => {
    expect(show(1, 10)).toBe('1 2 3 4 … 10');
    expect(show(3, 10)).toBe('1 2 3 4 … 10');
    expect(show(4, 10)).toBe('1 … 3 4 5 … 10');
    expect(show(8, 10)).toBe('1 … 7 8 9 10');
    expect(show(10, 10)).toBe('1 … 7 8 9 10');
    for (let last = 1; last <= 40; last += 1) {
      for (let current = 1; current <= last; current += 1) {
        const numbers = pageItems(current, last).filter((item) => item.kind === 'page');
        expect(numbers.length).toBeLessThanOrEqual(5);
        expect(numbers.some((item) => item.kind === 'page' && item.page === current)).toBe(true);
      }
    }
  });

  it('clamps an out-of-range page and gives nothing for no pages', () => {
    expect(show(99, 3)).toBe('1 2 3');
    expect(show(0, 7)).toBe('1 2 3 4 … 7');
    expect(pageItems(1, 0)).toEqual([]);
  });
});

describe('pageRange', () => {
  it('gives the records a page shows', () => {
    expect(pageRange(1, 10, 25)).toEqual({ from: 1, to: 10 });
    expect(pageRange(3, 10, 25)).toEqual({ from: 21, to: 25 });
    expect(pageRange(1, 10, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe('Pagination', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  function renderBar(page: number, total: number, onPageChange = vi.fn()) {
    render(
      <I18nextProvider i18n={i18n}>
        <Theme>
          <Pagination page={page} lastPage={Math.ceil(total / 10)} perPage={10} total={total} onPageChange={onPageChange} />
        </Theme>
      </I18nextProvider>,
    );
    return onPageChange;
  }

  it("says 'Showing X to Y of N' and marks the current page", () => {
    renderBar(2, 25);
    expect(screen.getByText('Showing 11 to 20 of 25')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
  });

  it('disables Previous on the first page and Next on the last', () => {
    renderBar(1, 25);
    expect((screen.getByRole('button', { name: /Previous/ }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks for the page the user picks, the next and the previous', async () => {
    const user = userEvent.setup();
    const onPageChange = renderBar(5, 100);
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(
      within(nav)
        .getAllByRole('button', { name: /^Page \d+$/ })
        .map((b) => b.textContent),
    ).toEqual(['1', '4', '5', '6', '10']);
    await user.click(screen.getByRole('button', { name: 'Page 6' }));
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await user.click(screen.getByRole('button', { name: /Previous/ }));
    expect(onPageChange.mock.calls).toEqual([[6], [6], [4]]);
  });

  it('shows nothing when there are no records', () => {
    const { container } = render(
      <I18nextProvider i18n={i18n}>
        <Pagination page={1} lastPage={1} perPage={10} total={0} onPageChange={() => undefined} />
      </I18nextProvider>,
    );
    expect(container.textContent).toBe('');
  });

  it('speaks Malay when the language is Malay', async () => {
    await i18n.changeLanguage('ms');
    renderBar(1, 25);
    expect(screen.getByText('Menunjukkan 1 hingga 10 daripada 25')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Seterusnya/ })).toBeTruthy();
  });

  it("formats the counts and page numbers by the chosen language, not the browser's", async () => {
    renderBar(2, 123_456);
    expect(screen.getByText('Showing 11 to 20 of 123,456')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 12,346' }).textContent).toBe('12,346');
    cleanup();
    await i18n.changeLanguage('id');
    renderBar(2, 123_456);
    expect(screen.getByText('Menampilkan 11 sampai 20 dari 123.456')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Halaman 12.346' }).textContent).toBe('12.346');
    cleanup();
    await i18n.changeLanguage('ms');
    renderBar(2, 123_456);
    // Malay groups thousands as Intl does for 'ms' (a comma).
    const ms = new Intl.NumberFormat('ms').format(123_456);
    expect(screen.getByText(`Menunjukkan 11 hingga 20 daripada ${ms}`)).toBeTruthy();
  });
});
