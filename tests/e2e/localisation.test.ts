import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient } from '../helpers/e2e-page.js';

/** The machine is shared and slow at times: wait up to 20 s for what the screen should show. */
const POLL = { timeout: 20_000 };
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
// `{{product}}` reads as the product's default name until an admin gives the programme's own.
const locale = (language: 'en' | 'id' | 'ms') =>
  JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'common.json'), 'utf8').replaceAll('{{product}}', 'Awards CMS'));

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

const seeText = (target: Page, text: string) => expect.poll(() => target.getByText(text, { exact: true }).first().isVisible(), POLL).toBe(true);

describe('numbers, rounds, the HTML shell and the Customer ID filter in English, Indonesian and Malay', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    ({ server, page } = suite = await startSignedInSuite());
  });
  afterAll(() => suite?.close());

  it("serves the HTML shell in the browser's language: <html lang>, title and the no-script text", async () => {
    for (const [browserLocale, language] of [
      ['ms-MY', 'ms'],
      ['id-ID', 'id'],
      ['en-GB', 'en'],
    ] as const) {
      const context = await suite!.browser.newContext({ locale: browserLocale, javaScriptEnabled: false });
      const shell = await context.newPage();
      await shell.goto(`${server.url}/login`);
      const texts = locale(language);
      expect(await shell.locator('html').getAttribute('lang')).toBe(language);
      expect(await shell.title()).toBe(texts.pages.titles.awardsCms);
      // Without scripts the browser shows <noscript> (text matching skips it, so it is read whole).
      expect(await shell.locator('noscript').isVisible()).toBe(true);
      expect(await shell.locator('noscript').textContent()).toBe(texts.common.noscript);
      await context.close();
    }
    // With scripts on, the app keeps <html lang> on the language it chose.
    const context = await suite!.browser.newContext({ locale: 'id-ID' });
    const app = await context.newPage();
    await app.goto(`${server.url}/login`);
    const id = locale('id').pages.titles;
    await expect.poll(() => app.title(), POLL).toBe(`${id.login} | ${id.awardsCms}`);
    expect(await app.locator('html').getAttribute('lang')).toBe('id');
    await app.goto(`${server.url}/login?lng=ms`);
    await expect.poll(() => app.locator('html').getAttribute('lang'), POLL).toBe('ms');
    await context.close();
  });

  it('formats the counts of the lists and the dashboard figures by the chosen language', async () => {
    await withScreenshotOnFailure(page, 'localisation-numbers', async () => {
      await page.goto(`${server.url}/dashboard?lng=en`);
      const api = apiClient(page);
      for (let start = 0; start < 1000; start += 50) {
        const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => api.post('/companies', { name: `Grouping Test ${start + i + 1}` })));
        expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.status)).toEqual([]);
      }
      const figure = (label: string) => page.getByText(label, { exact: true }).locator('xpath=..').getByTestId('stat-value');
      await page.reload();
      await expect.poll(() => figure('Total Companies').textContent(), POLL).toBe('1,000');
      await page.goto(`${server.url}/manage-company?lng=en`);
      await seeText(page, 'Showing 1 to 10 of 1,000');

      await page.goto(`${server.url}/manage-company?lng=id`);
      await seeText(page, 'Menampilkan 1 sampai 10 dari 1.000');
      expect(await page.getByRole('button', { name: 'Halaman 100' }).textContent()).toBe('100');
      await page.goto(`${server.url}/dashboard?lng=id`);
      await expect.poll(() => figure('Total Perusahaan').textContent(), POLL).toBe('1.000');

      // Malay groups as Intl does for 'ms'.
      const ms = await page.evaluate(() => new Intl.NumberFormat('ms').format(1000));
      await page.goto(`${server.url}/manage-company?lng=ms`);
      await seeText(page, `Menunjukkan 1 hingga 10 daripada ${ms}`);
      await page.goto(`${server.url}/dashboard?lng=ms`);
      await expect.poll(() => figure('Jumlah Syarikat').textContent(), POLL).toBe(ms);
    });
  });

  it("names the rounds 'Round 1' / 'Babak 1' / 'Pusingan 1' in the juror and examination round filters and the juror form", async () => {
    await withScreenshotOnFailure(page, 'localisation-rounds', async () => {
      for (const [language, filter, round] of [
        ['en', 'Round', 'Round'],
        ['id', 'Babak', 'Babak'],
        ['ms', 'Pusingan', 'Pusingan'],
      ] as const) {
        for (const list of ['manage-jury', 'manage-exam']) {
          await page.goto(`${server.url}/${list}?lng=${language}`);
          const select = page.getByRole('combobox', { name: filter, exact: true });
          await expect.poll(() => select.isVisible(), POLL).toBe(true);
          await select.click();
          await expect.poll(() => page.getByRole('option', { name: `${round} 2`, exact: true }).isVisible(), POLL).toBe(true);
          expect(await page.getByRole('option', { name: `${round} 1`, exact: true }).isVisible()).toBe(true);
          await page.getByRole('option', { name: `${round} 2`, exact: true }).click();
          await expect.poll(() => new URL(page.url()).searchParams.get('round'), POLL).toBe('2');
          expect(await select.textContent()).toBe(`${round} 2`);
        }
        // The juror form's round radios.
        await page.goto(`${server.url}/create-jury?lng=${language}`);
        await expect.poll(() => page.getByRole('radio', { name: `${round} 2`, exact: true }).isVisible(), POLL).toBe(true);
        expect(await page.getByRole('radio', { name: `${round} 1`, exact: true }).isVisible()).toBe(true);
      }
    });
  });

  it("takes a typed Customer ID, labelled 'Customer ID' in each language, applied only when it is a positive integer", async () => {
    await withScreenshotOnFailure(page, 'localisation-customer-id', async () => {
      for (const [language, label, apply, notPositive] of [
        ['en', 'Customer ID', 'Apply Filters', 'Customer ID must be a positive whole number (1 or more).'],
        ['id', 'ID Peserta', 'Terapkan Filter', 'ID Peserta harus berupa bilangan bulat positif (1 atau lebih).'],
        ['ms', 'ID Peserta', 'Guna Penapis', 'ID Peserta mestilah nombor bulat positif (1 atau lebih).'],
      ] as const) {
        await page.goto(`${server.url}/manage-contest?lng=${language}`);
        const field = page.getByRole('textbox', { name: label, exact: true });
        await expect.poll(() => field.isVisible(), POLL).toBe(true);
        await field.fill('0');
        await page.getByRole('button', { name: apply }).click();
        await expect.poll(() => page.getByRole('alert').filter({ hasText: notPositive }).isVisible(), POLL).toBe(true);
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        expect(new URL(page.url()).searchParams.get('q[customer_id]')).toBeNull();
        await field.fill('abc');
        await page.getByRole('button', { name: apply }).click();
        await expect.poll(() => field.getAttribute('aria-invalid'), POLL).toBe('true');
        expect(new URL(page.url()).searchParams.get('q[customer_id]')).toBeNull();
        await field.fill('7');
        await page.getByRole('button', { name: apply }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('q[customer_id]'), POLL).toBe('7');
        expect(await field.getAttribute('aria-invalid')).toBeNull();
      }
    });
  });
});
