import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, screenshot, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiWrite, openInEnglish, switchLanguage, toast as toastOf } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

const open = (path: string) => openInEnglish(page, `${server.url}${path}`);

const toast = (text: string) => toastOf(page, text);

describe('category screens in the browser', { timeout: 120_000 }, () => {
  beforeAll(async () => ({ server, page } = suite = await startSignedInSuite()));
  afterAll(() => suite?.close());

  it('shows each invalid input message in English and, after switching, in Malay', async () => {
    await withScreenshotOnFailure(page, 'categories-validation', async () => {
      await open(`/create-category`);
      // By id, so the same locators work in every language.
      const name = page.locator('#category-create_name');
      const description = page.locator('#category-create_description');
      await page.getByRole('button', { name: 'Create Category' }).click();
      await expect.poll(() => page.getByText('Name is required').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Description is required').isVisible()).toBe(true);

      await name.fill('A');
      await description.fill('Too short');
      await expect.poll(() => page.getByText('Name must be at least 2 characters').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Description must be at least 10 characters').isVisible()).toBe(true);

      await name.fill('N'.repeat(101));
      await description.fill('D'.repeat(501));
      await expect.poll(() => page.getByText('Name must be less than 100 characters').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Description must be less than 500 characters').isVisible()).toBe(true);

      await name.fill('   ');
      await expect.poll(() => page.getByText('Name is required').isVisible()).toBe(true);
      await screenshot(page, 'category-create-invalid-1280');

      await switchLanguage(page, 'ms');
      await expect.poll(() => page.getByText('Nama diperlukan').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Keterangan mestilah kurang daripada 500 aksara').isVisible()).toBe(true);
      await name.fill('B');
      await expect.poll(() => page.getByText('Nama mestilah sekurang-kurangnya 2 aksara').isVisible()).toBe(true);
      await description.fill('pendek');
      await expect.poll(() => page.getByText('Keterangan mestilah sekurang-kurangnya 10 aksara').isVisible()).toBe(true);
      await name.fill('');
      await description.fill('');
      await switchLanguage(page, 'en');
    });
  });

  it('creates a category and derives its slug from the name', async () => {
    await withScreenshotOnFailure(page, 'categories-create', async () => {
      await open(`/create-category`);
      await page.getByLabel('Name').fill('Best Integrated Campaign');
      await page.getByLabel('Description').fill('Work that joins every channel into one idea.');
      await page.getByRole('radio', { name: 'Inactive' }).click();
      await page.getByRole('button', { name: 'Create Category' }).click();
      await expect.poll(() => toast('Category created successfully!').isVisible()).toBe(true);
      await page.waitForURL(`${server.url}/manage-category`);
      const row = page.getByRole('row', { name: /Best Integrated Campaign/ });
      await expect.poll(() => row.isVisible()).toBe(true);
      expect(await row.getByText('best-integrated-campaign').isVisible()).toBe(true);
      expect(await row.getByText('Inactive').isVisible()).toBe(true);
    });
  });

  it('edits a category with the Active Status switch', async () => {
    await withScreenshotOnFailure(page, 'categories-edit', async () => {
      await open(`/manage-category`);
      await page.getByRole('link', { name: 'Edit Best Integrated Campaign' }).click();
      await page.waitForURL(/\/manage-category\/edit\/\d+$/);
      const toggle = page.getByRole('switch', { name: /Active Status/ });
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
      await page.getByLabel('Name').fill('Best Integrated Campaign 2025');
      await toggle.click();
      await screenshot(page, 'category-edit-1280');
      await page.getByRole('button', { name: 'Update Category' }).click();
      await expect.poll(() => toast('Category updated successfully!').isVisible()).toBe(true);
      await page.waitForURL(`${server.url}/manage-category`);
      const row = page.getByRole('row', { name: /Best Integrated Campaign 2025/ });
      await expect.poll(() => row.getByText('Active', { exact: true }).isVisible()).toBe(true);
    });
  });

  // A stale save now opens the merge dialog, tested end to end in tests/e2e/history.test.ts;
  // this reload journey is to be rewritten as a merge where both sides changed the name.
  it.skip('offers to reload when someone else saved the category first', async () => {
    await withScreenshotOnFailure(page, 'categories-stale', async () => {
      await open('/manage-category');
      const record = await apiWrite(page, 'POST', '/categories', { name: 'Outdoor', description: 'Billboards and street work', status: 'active' });
      await open(`/manage-category/edit/${String(record.id)}`);
      const name = page.locator('#category-edit_name');
      await expect.poll(() => name.inputValue()).toBe('Outdoor');
      await page.waitForTimeout(5);
      await apiWrite(page, 'PUT', `/categories/${String(record.id)}`, {
        name: 'Outdoor & Ambient',
        description: 'Billboards and street work',
        status: 'active',
      });
      await name.fill('Outdoor (mine)');
      await page.getByRole('button', { name: 'Update Category' }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByText(/Someone else changed "Outdoor"/).isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'Reload' }).click();
      await expect.poll(() => name.inputValue()).toBe('Outdoor & Ambient');
      await name.fill('Outdoor & Ambient Media');
      await page.getByRole('button', { name: 'Update Category' }).click();
      await expect.poll(() => toast('Category updated successfully!').isVisible()).toBe(true);
      await page.waitForURL(`${server.url}/manage-category`);
      await expect.poll(() => page.getByRole('row', { name: /Outdoor & Ambient Media/ }).isVisible()).toBe(true);
    });
  });

  it("shows 'Invalid category ID' and 'Category not found.'", async () => {
    await open(`/manage-category/edit/0`);
    await expect.poll(() => page.getByText('Invalid category ID').isVisible()).toBe(true);
    await open(`/manage-category/edit/999999`);
    await expect.poll(() => page.getByText('Category not found.').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Back to Category List' }).isVisible()).toBe(true);
  });

  it('deletes a category after answering No, then Yes', async () => {
    await withScreenshotOnFailure(page, 'categories-delete', async () => {
      await open(`/manage-category`);
      const row = page.getByRole('row', { name: /Best Integrated Campaign 2025/ });
      await row.getByRole('button', { name: /Delete/ }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByText('Are you sure you want to delete category "Best Integrated Campaign 2025"?').isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'No' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await row.isVisible()).toBe(true);

      await row.getByRole('button', { name: /Delete/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await expect.poll(() => toast('Category deleted successfully!').isVisible()).toBe(true);
      await expect.poll(() => row.count()).toBe(0);
    });
  });

  it('pages through 25 categories', async () => {
    await withScreenshotOnFailure(page, 'categories-paging', async () => {
      await open(`/manage-category`);
      // Start from an empty list: remove what earlier tests left.
      await page.evaluate(async () => {
        const token = sessionStorage.getItem('auth_token') ?? '';
        const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
        const headers = { authorization: `Bearer ${token}`, 'x-access-token': token, 'x-xsrf-token': xsrf };
        const list = (await (await fetch('/api/categories?per_page=100', { headers })).json()) as { data: { id: number }[] };
        for (const row of list.data) await fetch(`/api/categories/${row.id}`, { method: 'DELETE', headers });
      });
      await page.reload();
      await expect.poll(() => page.getByText('No categories found.').isVisible()).toBe(true);
      for (let i = 1; i <= 25; i += 1) {
        await apiWrite(page, 'POST', '/categories', {
          name: `Category ${String(i).padStart(2, '0')}`,
          description: `Description of category ${i}`,
          status: 'active',
        });
      }
      // Categories take their page size from the server.
      const perPage = 10;
      await page.reload();
      await expect.poll(() => page.getByText(`Showing 1 to ${perPage} of 25`).isVisible()).toBe(true);
      await screenshot(page, 'category-list-1280');
      await page.getByRole('button', { name: /Next/ }).click();
      await page.waitForURL(/[?&]page=2/);
      await expect.poll(() => page.getByText(`Showing ${perPage + 1} to ${Math.min(2 * perPage, 25)} of 25`).isVisible()).toBe(true);
      const last = Math.ceil(25 / perPage);
      await page.getByRole('button', { name: `Page ${last}` }).click();
      await expect.poll(() => page.getByText(`Showing ${(last - 1) * perPage + 1} to 25 of 25`).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: /Next/ }).isDisabled()).toBe(true);
      await page.reload();
      await expect.poll(() => page.getByText(`Showing ${(last - 1) * perPage + 1} to 25 of 25`).isVisible()).toBe(true);

      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'category-list-390');
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  });
});
