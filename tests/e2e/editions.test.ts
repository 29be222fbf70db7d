import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { openInEnglish, switchLanguage } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

/** How many exams the list's page shows (2026 has 12, a page of 10; the archived 2025 has 2). */
const rowsInList = (page: Page) => page.locator('table tbody tr').count();

/** Picks an edition in the header's switcher (labelled `label`), by the option's text. */
async function chooseEdition(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('the current edition in the browser', { timeout: 120_000 }, () => {
  beforeAll(async () => ({ server, page } = suite = await startSignedInSuite({ DEMO_DATA: 'true' })));
  afterAll(() => suite?.close());

  it('switches the edition in the header: the exam list follows and an archived edition shows it is read-only (English)', async () => {
    await withScreenshotOnFailure(page, 'editions-switch-en', async () => {
      await openInEnglish(page, `${server.url}/manage-exam`);
      const switcher = page.getByRole('combobox', { name: 'Current edition' });
      await expect.poll(() => switcher.textContent()).toBe('Awards 2026');
      await expect.poll(() => rowsInList(page)).toBe(10);
      await page.getByText('Showing 1 to 10 of 12').waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Archived, read-only' }).count()).toBe(0);

      await chooseEdition(page, 'Current edition', 'Awards 2025 (archived)');
      await expect.poll(() => switcher.textContent()).toBe('Awards 2025 (archived)');
      await page.getByText('Showing 1 to 2 of 2').waitFor();
      await page.getByRole('status').filter({ hasText: 'Archived, read-only' }).waitFor();

      // Kept on the server: a reload opens in the chosen edition.
      await page.reload();
      await expect.poll(() => page.getByRole('combobox', { name: 'Current edition' }).textContent()).toBe('Awards 2025 (archived)');
      await expect.poll(() => rowsInList(page)).toBe(2);
    });
  });

  it('does the same in Bahasa Indonesia', async () => {
    await withScreenshotOnFailure(page, 'editions-switch-id', async () => {
      await page.goto(`${server.url}/manage-exam`);
      await switchLanguage(page, 'id');
      try {
        const switcher = page.getByRole('combobox', { name: 'Edisi saat ini' });
        await expect.poll(() => switcher.textContent()).toBe('Awards 2025 (diarsipkan)');
        await page.getByRole('status').filter({ hasText: 'Diarsipkan, hanya-baca' }).waitFor();
        await expect.poll(() => rowsInList(page)).toBe(2);

        await chooseEdition(page, 'Edisi saat ini', 'Awards 2026');
        await expect.poll(() => switcher.textContent()).toBe('Awards 2026');
        await expect.poll(() => rowsInList(page)).toBe(10);
        await expect.poll(() => page.getByRole('status').filter({ hasText: 'Diarsipkan, hanya-baca' }).count()).toBe(0);
      } finally {
        await switchLanguage(page, 'en');
      }
    });
  });
});
