import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite, openInEnglish, seeText, switchLanguage } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

describe('data in and out in the browser', { timeout: 180_000 }, () => {
  beforeAll(async () => ({ server, page } = suite = await startSignedInSuite()));
  afterAll(() => suite?.close());

  it('imports companies: the mapping is guessed, the preview marks a bad cell with the form message, fixing it lets all rows in', async () => {
    await withScreenshotOnFailure(page, 'dataio-import', async () => {
      await openInEnglish(page, `${server.url}/import-data`);
      await page.getByRole('combobox', { name: 'Records to import' }).click();
      // Kinds of record by their names (not 'Manage ...' titles), jury applicants among them.
      await page.getByRole('option', { name: 'Jury applicants', exact: true }).waitFor();
      await page.getByRole('option', { name: 'Companies', exact: true }).click();
      const file = 'Nama;Aktif\nAgency One;ya\nX;ya\nAgency Three;tidak\n';
      await page.locator('#import-file').setInputFiles({ name: 'companies.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
      await seeText(page, 'companies.csv: 3 rows. Map each column to a field.');
      await expect.poll(() => page.getByRole('combobox', { name: 'Field for column Nama' }).textContent()).toBe('Name');
      await page.getByRole('button', { name: 'Check rows' }).click();
      await seeText(page, '3 rows: 1 invalid, 0 update existing records.');
      await seeText(page, 'Company name must be at least 2 characters');
      await expect.poll(() => page.getByRole('button', { name: /^Import \d+ rows?$/ }).isDisabled()).toBe(true);

      // The fixed cell is checked again at once: no 'Check again' needed.
      await page.getByRole('textbox', { name: 'Row 2, Name' }).fill('Agency Two');
      await seeText(page, '3 rows: 0 invalid, 0 update existing records.');
      await page.getByRole('button', { name: 'Import 3 rows' }).click();
      await seeText(page, 'Import finished: 3 created, 0 updated, 0 not imported.');
      const companies = await apiClient(page).get('/companies?per_page=100');
      expect(companies.body.data.map((c: any) => `${c.name} ${c.is_active}`).sort()).toEqual(['Agency One true', 'Agency Three false', 'Agency Two true']);
    });
  });

  it('downloads the sample file, in the reader language', async () => {
    await openInEnglish(page, `${server.url}/import-data`);
    await switchLanguage(page, 'id');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Unduh berkas contoh' }).click()]);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text).toContain('Ogilvy');
    await switchLanguage(page, 'en');
  });

  it('exports the filtered list to CSV and Excel', async () => {
    await withScreenshotOnFailure(page, 'dataio-export', async () => {
      await apiWrite(page, 'POST', '/companies', { name: 'Zeta Export' });
      await openInEnglish(page, `${server.url}/manage-company?search=agency`);
      await page.getByRole('button', { name: 'Export' }).click();
      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV (.csv)' }).click()]);
      expect(csv.suggestedFilename()).toMatch(/^companies-.*\.csv$/);
      const rows = parse(fs.readFileSync((await csv.path())!, 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
      expect(rows.map((row) => Object.values(row).find((v) => v.startsWith('Agency'))).sort()).toEqual(['Agency One', 'Agency Three', 'Agency Two']);
      await page.getByRole('button', { name: 'Export' }).click();
      const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Excel (.xlsx)' }).click()]);
      expect(xlsx.suggestedFilename()).toMatch(/^companies-.*\.xlsx$/);
      expect(
        fs
          .readFileSync((await xlsx.path())!)
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
    });
  });
  it('sets the status of all matching categories in bulk after a confirm naming the count', async () => {
    await withScreenshotOnFailure(page, 'dataio-bulk', async () => {
      for (const name of ['Bulk Film', 'Bulk Print', 'Bulk Radio']) {
        await apiWrite(page, 'POST', '/categories', { name, description: 'A category for the bulk test', status: 'active' });
      }
      await apiWrite(page, 'POST', '/categories', { name: 'Other Category', description: 'Not matched by the search', status: 'active' });
      await openInEnglish(page, `${server.url}/manage-category?search=bulk`);
      await page.getByRole('checkbox', { name: 'Select all rows on this page' }).click();
      await seeText(page, '3 rows selected');
      await page.getByRole('combobox', { name: 'Set a field...' }).click();
      await page.getByRole('option', { name: 'Status: Inactive' }).click();
      await seeText(page, 'Set Status to Inactive on 3 rows?');
      await page.getByRole('button', { name: 'Yes' }).click();
      await expect
        .poll(async () => ((await apiClient(page).get('/categories?per_page=100')).body.data as any[]).map((c) => `${c.name} ${c.status}`).sort())
        .toEqual(['Bulk Film inactive', 'Bulk Print inactive', 'Bulk Radio inactive', 'Other Category active']);
    });
  });
  it('saves the filtered contests as a shared view, and its link reproduces the view', async () => {
    await withScreenshotOnFailure(page, 'dataio-views', async () => {
      await openInEnglish(page, `${server.url}/manage-contest?status=approved&sort=status&direction=desc`);
      await page.getByRole('button', { name: 'Save view' }).click();
      await page.getByLabel('View name').fill('Approved entries');
      await page.getByRole('checkbox', { name: 'Share with all admins' }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await seeText(page, 'Approved entries');
      const href = await page.getByRole('link', { name: 'Approved entries' }).getAttribute('href');
      expect(href).toBe('/manage-contest?status=approved&sort=status&direction=desc');
      await page.goto(`${server.url}/manage-contest`);
      await page.getByRole('link', { name: 'Approved entries' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?status=approved&sort=status&direction=desc');
      const views = await apiClient(page).get('/views?entity=contest');
      expect(views.body.data).toEqual([expect.objectContaining({ name: 'Approved entries', shared: true })]);
    });
  });
});
