import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, screenshot, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiWrite, openInEnglish, switchLanguage, toast as toastOf } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

const open = (path: string) => openInEnglish(page, `${server.url}${path}`);

const toast = (text: string) => toastOf(page, text);

const ms = JSON.parse(fs.readFileSync(new URL('../../locales/ms/common.json', import.meta.url), 'utf8'));

describe('company screens in the browser', { timeout: 120_000 }, () => {
  beforeAll(async () => ({ server, page } = suite = await startSignedInSuite()));
  afterAll(() => suite?.close());

  it('shows each invalid input message in English and, after switching, in Malay', async () => {
    await withScreenshotOnFailure(page, 'companies-validation', async () => {
      await open('/create-company');
      const name = page.locator('#company-create_name');
      await page.getByRole('button', { name: 'Create Company' }).click();
      await expect.poll(() => page.getByText('Company name is required').isVisible()).toBe(true);
      await name.fill('A');
      await expect.poll(() => page.getByText('Company name must be at least 2 characters').isVisible()).toBe(true);
      await name.fill('C'.repeat(101));
      await expect.poll(() => page.getByText('Company name must be less than 100 characters').isVisible()).toBe(true);
      await name.fill('   ');
      await expect.poll(() => page.getByText('Company name is required').isVisible()).toBe(true);

      const malay = ms.validation.company_name;
      expect(malay.required).not.toBe('Company name is required');
      await switchLanguage(page, 'ms');
      await expect.poll(() => page.getByText(malay.required).isVisible()).toBe(true);
      await name.fill('B');
      await expect.poll(() => page.getByText(malay.min).isVisible()).toBe(true);
      await name.fill('D'.repeat(101));
      await expect.poll(() => page.getByText(malay.max).isVisible()).toBe(true);
      await name.fill('');
      await switchLanguage(page, 'en');
    });
  });

  it('creates a company, shows its detail page, and edits it with the Active Status switch', async () => {
    await withScreenshotOnFailure(page, 'companies-create-edit', async () => {
      await open('/create-company');
      await page.locator('#company-create_name').fill('Acme Advertising');
      await page.getByRole('button', { name: 'Create Company' }).click();
      await expect.poll(() => toast('Company created successfully!').isVisible()).toBe(true);
      await page.waitForURL(`${server.url}/manage-company`);
      await expect.poll(() => page.getByRole('heading', { name: 'Company List' }).isVisible()).toBe(true);
      const row = page.getByRole('row', { name: /Acme Advertising/ });
      await expect.poll(() => row.getByText('Active', { exact: true }).isVisible()).toBe(true);

      await row.getByRole('link', { name: 'Acme Advertising', exact: true }).click();
      await page.waitForURL(/\/manage-company\/\d+$/);
      await expect.poll(() => page.getByRole('heading', { name: 'Basic Information' }).isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('heading', { name: 'Acme Advertising', level: 1 }).isVisible()).toBe(true);
      await expect.poll(() => page.title()).toMatch(/^Company Detail/);
      await screenshot(page, 'company-detail-1280');

      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.waitForURL(/\/manage-company\/edit\/\d+$/);
      const toggle = page.getByRole('switch', { name: /Active Status/ });
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
      await toggle.click();
      await page.getByRole('button', { name: 'Update Company' }).click();
      await expect.poll(() => toast('Company updated successfully!').isVisible()).toBe(true);
      await page.waitForURL(`${server.url}/manage-company`);
      await expect.poll(() => row.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    });
  });

  it("shows 'Invalid company ID' without asking the server, and 'Company not found.'", async () => {
    await open('/manage-company/edit/abc');
    await expect.poll(() => page.getByText('Invalid company ID').isVisible()).toBe(true);
    await open('/manage-company/0');
    await expect.poll(() => page.getByText('Invalid company ID').isVisible()).toBe(true);
    await open('/manage-company/424242');
    await expect.poll(() => page.getByText('Company not found.').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Back to Company List' }).isVisible()).toBe(true);
  });

  it("deletes a company through 'Delete Company', answering No, then Yes", async () => {
    await withScreenshotOnFailure(page, 'companies-delete', async () => {
      await open('/manage-company');
      const row = page.getByRole('row', { name: /Acme Advertising/ });
      await row.getByRole('button', { name: /Delete/ }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByRole('heading', { name: 'Delete Company' }).isVisible()).toBe(true);
      expect(await dialog.getByText('Are you sure you want to delete company "Acme Advertising"?').isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'No' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await row.isVisible()).toBe(true);

      await row.getByRole('button', { name: /Delete/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await expect.poll(() => toast('Company deleted successfully!').isVisible()).toBe(true);
      await expect.poll(() => row.count()).toBe(0);
      await expect.poll(() => page.getByText('No companies found.').isVisible()).toBe(true);
    });
  });

  it('pages through 25 companies with page and size in the URL', async () => {
    await withScreenshotOnFailure(page, 'companies-paging', async () => {
      await open('/manage-company');
      for (let i = 1; i <= 25; i += 1) {
        await apiWrite(page, 'POST', '/companies', { name: `Company ${String(i).padStart(2, '0')}` });
      }
      await page.reload();
      await expect.poll(() => page.getByText('Showing 1 to 10 of 25').isVisible()).toBe(true);
      await page.getByRole('button', { name: /Next/ }).click();
      await page.waitForURL(/[?&]page=2/);
      await expect.poll(() => page.getByText('Showing 11 to 20 of 25').isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Page 3' }).click();
      await expect.poll(() => page.getByText('Showing 21 to 25 of 25').isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('row', { name: /Company 25/ }).isVisible()).toBe(true);
      await screenshot(page, 'company-list-1280');

      await open('/manage-company?size=5&page=4');
      await expect.poll(() => page.getByText('Showing 16 to 20 of 25').isVisible()).toBe(true);
      await page.getByRole('button', { name: /Previous/ }).click();
      await page.waitForURL(/page=3/);
      expect(new URL(page.url()).searchParams.get('size')).toBe('5');
      await expect.poll(() => page.getByText('Showing 11 to 15 of 25').isVisible()).toBe(true);
      await page.getByRole('searchbox', { name: 'Search the list' }).fill('Company 2');
      await expect.poll(() => page.getByText('Showing 1 to 5 of 6').isVisible()).toBe(true);
      expect(new URL(page.url()).searchParams.get('page')).toBeNull();
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'company-list-390');
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  });
});
