import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, type StartedServer, settleAnimations, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The machine is shared and slow at times: wait up to 20 s for what the screen should show. */
const POLL = { timeout: 20_000 };

let suite: BrowserSuite | undefined;
let server: StartedServer;
let page: Page;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core on the page's content sections and any open popover (the widgets; the shell's
 * header and footer are not this suite's subject) and returns the serious and critical violations.
 * Waits for opening animations first: axe blends a half-faded popover's colours with what lies
 * behind it, which failed the check at random, however strong the colours are at rest.
 */
async function seriousViolations(target: Page): Promise<string[]> {
  await settleAnimations(target);
  if (!(await target.evaluate(() => 'axe' in window))) await target.addScriptTag({ content: axeSource });
  const violations = await target.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const include = [['main section'], ['[data-radix-popper-content-wrapper]']];
    const result = await axe.run({ include }, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** A GET on the API with the signed-in page's own token (a second sign-in would end its session). */
async function apiGet(path: string): Promise<{ status: number; body: any }> {
  return page.evaluate(async (p) => {
    const res = await fetch(`/api${p}`, { headers: { authorization: `Bearer ${sessionStorage.getItem('auth_token')}` } });
    return { status: res.status, body: await res.json() };
  }, path);
}

/** Opens a currency selector and waits until its search box has focus (100 ms after opening). */
async function openCurrencies(name: string): Promise<void> {
  await page.getByRole('button', { name }).click();
  const search = page.getByRole('combobox', { name: 'Currencies' });
  await expect.poll(() => search.evaluate((el) => el === document.activeElement).catch(() => false), POLL).toBe(true);
}

/** The browser's today plus `days`, as YYYY-MM-DD in its local calendar. */
async function browserDate(days: number): Promise<string> {
  return page.evaluate((n) => {
    const d = new Date();
    d.setDate(d.getDate() + n);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, days);
}

describe('widgets in the browser', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    ({ server } = suite = await startBrowserSuite());
    // axe is injected as a script tag, which the app's CSP (no inline script) would refuse.
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', bypassCSP: true });
    page = await context.newPage();
    await signIn(page, server.url);
  });
  afterAll(() => suite?.close());

  it('shows the sandbox gallery to a signed-in admin, in the chosen language', async () => {
    await withScreenshotOnFailure(page, 'widgets-sandbox-languages', async () => {
      await page.goto(`${server.url}/sandbox`);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Sandbox' }).isVisible(), POLL).toBe(true);
      expect(await page.title()).toMatch(/^Sandbox/);
      for (const section of ['Searchable select', 'Currency selector', 'Calendar date picker', 'Amount input', 'A form using every widget']) {
        expect(await page.getByRole('region', { name: section }).isVisible()).toBe(true);
      }
      await page.goto(`${server.url}/sandbox?lng=ms`);
      await expect.poll(() => page.getByRole('region', { name: 'Pemilih mata wang' }).isVisible(), POLL).toBe(true);
      expect(await page.getByRole('combobox', { name: 'Berisi' }).first().inputValue()).toBe('05 Jan 2025');
      await page.goto(`${server.url}/sandbox?lng=id`);
      await expect.poll(() => page.getByRole('button', { name: 'Kosong: Pilih Satu' }).isVisible(), POLL).toBe(true);
      await page.goto(`${server.url}/sandbox?lng=en`);
      await expect.poll(() => page.getByRole('button', { name: 'Empty: Select One' }).isVisible(), POLL).toBe(true);
    });
  });

  it('lets every sandbox example that is not disabled or loading take input, the empty and invalid ones included', async () => {
    await withScreenshotOnFailure(page, 'widgets-sandbox-input', async () => {
      await page.goto(`${server.url}/sandbox?lng=en`);
      const selects = page.getByRole('region', { name: 'Searchable select' });
      await expect.poll(() => selects.getByRole('button', { name: 'Empty: Select One' }).isVisible(), POLL).toBe(true);
      // Searchable select, empty and invalid: choose an option with the mouse, then with the keyboard.
      await selects.getByRole('button', { name: 'Empty: Select One' }).click();
      await page.getByRole('option', { name: /^Best Film/ }).click();
      await expect.poll(() => selects.getByRole('button', { name: 'Empty: Best Film' }).isVisible(), POLL).toBe(true);
      // The first list must be gone, and the keys go to the second one's search box only once it has the focus
      // (on a busy machine an arrow key pressed before that was lost, and Enter chose the first option).
      await expect.poll(() => page.getByRole('listbox').count(), POLL).toBe(0);
      await selects.getByRole('button', { name: 'Invalid: Select One' }).click();
      await expect.poll(() => page.getByRole('listbox').isVisible(), POLL).toBe(true);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-autocomplete') === 'list'), POLL).toBe(true);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => selects.getByRole('button', { name: 'Invalid: Best Design' }).isVisible(), POLL).toBe(true);

      // Currency selector, empty: arrow keys and Enter choose a currency (once the select's list is gone).
      await expect.poll(() => page.getByRole('listbox').count(), POLL).toBe(0);
      const currencies = page.getByRole('region', { name: 'Currency selector' });
      const emptyCurrency = currencies.getByRole('button', { name: /^Empty: / });
      const before = await emptyCurrency.getAttribute('aria-label');
      await emptyCurrency.click();
      const search = page.getByRole('combobox', { name: 'Currencies' });
      await expect.poll(() => search.evaluate((el) => el === document.activeElement).catch(() => false), POLL).toBe(true);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('listbox', { name: 'Currencies' }).count(), POLL).toBe(0);
      const after = (await emptyCurrency.getAttribute('aria-label')) ?? '';
      expect(after).not.toBe(before);
      expect(after).toMatch(/^Empty: [A-Z]{3} /);

      // Calendar, empty and invalid: pick a day on the grid with the keyboard.
      const calendars = page.getByRole('region', { name: 'Calendar date picker' });
      for (const name of ['Empty', 'Invalid']) {
        const field = calendars.getByRole('combobox', { name });
        expect(await field.inputValue()).toBe('');
        await field.click();
        await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="grid"]') !== null), POLL).toBe(true);
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Enter');
        await expect.poll(() => page.getByRole('grid').count(), POLL).toBe(0);
        expect(await field.inputValue()).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
      }

      // Amount input, empty: the amount is typed and its currency chosen (USD to the next in the list).
      const amounts = page.getByRole('region', { name: 'Amount input' });
      const amount = amounts.getByRole('textbox', { name: 'Empty', exact: true });
      await amount.fill('1234.5');
      expect(await amount.inputValue()).toBe('1234.5');
      const amountCurrency = amounts.getByRole('button', { name: /^Empty currency: / });
      const currencyBefore = await amountCurrency.getAttribute('aria-label');
      await amountCurrency.click();
      await expect.poll(() => search.evaluate((el) => el === document.activeElement).catch(() => false), POLL).toBe(true);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => amountCurrency.getAttribute('aria-label'), POLL).not.toBe(currencyBefore);

      // Disabled examples still refuse input.
      expect(await selects.getByRole('button', { name: /^Disabled: / }).isDisabled()).toBe(true);
      expect(await calendars.getByRole('combobox', { name: 'Disabled' }).isDisabled()).toBe(true);
    });
  });

  it('reports no serious or critical axe violations on the widgets, closed and open', async () => {
    await withScreenshotOnFailure(page, 'widgets-axe', async () => {
      await page.goto(`${server.url}/sandbox`);
      await expect.poll(() => page.getByRole('button', { name: 'Empty: Select One' }).isVisible(), POLL).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Filled: Best Design' }).click();
      await expect.poll(() => page.getByRole('listbox').isVisible(), POLL).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: /^Filled: MYR/ }).click();
      await expect.poll(() => page.getByRole('listbox', { name: 'Currencies' }).isVisible(), POLL).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByRole('combobox', { name: 'Filled' }).click();
      await expect.poll(() => page.getByRole('grid').isVisible(), POLL).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      const form = page.getByRole('region', { name: 'A form using every widget' });
      await form.getByRole('button', { name: 'Check the form' }).click();
      await expect.poll(() => form.getByText('This field is required').first().isVisible(), POLL).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('saves a category prize amount and currency through the real screens and reads them back', async () => {
    await withScreenshotOnFailure(page, 'widgets-prize-money', async () => {
      await page.goto(`${server.url}/create-category`);
      await page.getByLabel('Name').fill('Best Film');
      await page.getByLabel('Description').fill('Moving pictures of every length and kind.');
      await openCurrencies('Currency: USD United States Dollar');
      await page.keyboard.type('ring');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('button', { name: 'Currency: MYR Ringgit' }).isVisible(), POLL).toBe(true);
      await page.getByRole('textbox', { name: 'Amount' }).pressSequentially('25x000.505');
      expect(await page.getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('25000.50');
      await page.getByRole('button', { name: 'Create Category' }).click();
      await page.waitForURL((u) => u.pathname === '/manage-category');

      const list = await apiGet('/categories?search=Best%20Film');
      expect(list.status).toBe(200);
      const created = list.body.data[0];
      expect(created.prize_money).toEqual({ amount: 25000.5, currency: 'MYR' });

      await page.goto(`${server.url}/manage-category/edit/${created.id}`);
      const amount = page.getByRole('textbox', { name: 'Amount' });
      await expect.poll(() => amount.inputValue(), POLL).toBe('25000.5');
      expect(await page.getByRole('button', { name: 'Currency: MYR Ringgit' }).isVisible()).toBe(true);
      await amount.fill('');
      await amount.pressSequentially('1200');
      await openCurrencies('Currency: MYR Ringgit');
      await page.keyboard.type('eur');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Update Category' }).click();
      await page.waitForURL((u) => u.pathname === '/manage-category');
      expect((await apiGet(`/categories/${created.id}`)).body.data.prize_money).toEqual({ amount: 1200, currency: 'EUR' });
    });
  });

  it('picks a campaign’s start and end dates on the calendar and reads them back', async () => {
    await withScreenshotOnFailure(page, 'widgets-campaign-dates', async () => {
      await page.goto(`${server.url}/create-campaign`);
      await page.getByLabel('Name', { exact: false }).first().fill('Spring Awards');
      const start = page.getByRole('combobox', { name: /Start Date/i });
      const end = page.getByRole('combobox', { name: /End Date/i });
      expect(await start.getAttribute('readonly')).not.toBeNull();
      await start.click();
      await page.getByRole('button', { name: 'Today' }).click();
      await expect.poll(() => page.getByRole('grid').count(), POLL).toBe(0);
      await expect.poll(() => start.evaluate((el) => el === document.activeElement), POLL).toBe(true);
      await end.click();
      await expect.poll(() => page.getByRole('grid').isVisible(), POLL).toBe(true);
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="grid"]') !== null), POLL).toBe(true);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const today = await browserDate(0);
      const twoWeeks = await browserDate(14);
      const shown = await page.evaluate((iso) => {
        const [y, m, d] = iso.split('-').map(Number);
        return new Date(y!, m! - 1, d!).toLocaleDateString('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
      }, twoWeeks);
      expect(await end.inputValue()).toBe(shown.replace('Sept', 'Sep'));
      await page
        .getByRole('button', { name: /^Create/ })
        .last()
        .click();
      await page.waitForURL((u) => u.pathname === '/manage-campaign');
      const list = await apiGet('/campaigns?search=Spring%20Awards');
      expect(list.body.data[0]).toMatchObject({ name: 'Spring Awards', start_date: today, end_date: twoWeeks });
    });
  });
});
