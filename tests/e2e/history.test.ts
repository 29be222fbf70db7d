import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, type SignedInSuite, type StartedServer, signIn, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite, openInEnglish, switchLanguage, toast as toastOf } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

const open = (path: string) => openInEnglish(page, `${server.url}${path}`);
const ms = JSON.parse(fs.readFileSync(new URL('../../locales/ms/common.json', import.meta.url), 'utf8'));

describe('history in the browser', { timeout: 180_000 }, () => {
  beforeAll(async () => ({ server, page } = suite = await startSignedInSuite({ DEMO_DATA: 'false' })), 180_000);
  afterAll(() => suite?.close());

  it('undoes a delete from its toast: the company comes back with its id', async () => {
    await withScreenshotOnFailure(page, 'history-undo', async () => {
      await open('/dashboard');
      const company = await apiWrite(page, 'POST', '/companies', { name: 'Oops Advertising' });
      await open(`/manage-company/${String(company.id)}`);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await expect.poll(() => toastOf(page, 'Company deleted successfully!').isVisible()).toBe(true);
      await page.waitForURL(`${server.url}/manage-company`);
      expect((await apiClient(page).get(`/companies/${String(company.id)}`)).status).toBe(404);
      await page.locator('.Toastify').getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => toastOf(page, '"Oops Advertising" was restored.').isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('link', { name: 'Oops Advertising', exact: true }).isVisible()).toBe(true);
      const back = await apiClient(page).get(`/companies/${String(company.id)}`);
      expect(back.status).toBe(200);
      expect(back.body.data.name).toBe('Oops Advertising');
    });
  });

  it("reads a submittor's history in Malay: who, when, and each change before and after", async () => {
    await withScreenshotOnFailure(page, 'history-tab', async () => {
      await open('/dashboard');
      const customer = await apiWrite(page, 'POST', '/customers', {
        email: 'siti@example.com',
        password: 'siti-password-1',
        password_confirmation: 'siti-password-1',
        max_entries: 3,
      });
      await apiWrite(page, 'PUT', `/customers/${String(customer.id)}`, {
        name: 'Siti Aminah',
        email: 'siti@example.com',
        company: 'Kreatif Sdn Bhd',
        is_active: true,
      });
      await open(`/manage-customer/${String(customer.id)}`);
      await switchLanguage(page, 'ms');
      await page.getByRole('tab', { name: ms.history.tab }).click();
      const feed = page.getByRole('feed');
      const edited = feed.getByRole('article', { name: ms.history.actions.update });
      await expect.poll(() => edited.isVisible()).toBe(true);
      await expect.poll(() => edited.getByText('Siti Aminah', { exact: true }).isVisible()).toBe(true);
      await expect.poll(() => edited.getByText('Kreatif Sdn Bhd', { exact: true }).isVisible()).toBe(true);
      expect(await edited.getByText(/oleh /).first().isVisible()).toBe(true);
      const created = feed.getByRole('article', { name: ms.history.actions.create });
      await expect.poll(() => created.getByText('siti@example.com').first().isVisible()).toBe(true);
      expect(await feed.getByText(/password|\$scrypt/i).count()).toBe(0);
      await switchLanguage(page, 'en');
    });
  });

  it('merges two admins editing different fields of one category: both changes survive', async () => {
    await withScreenshotOnFailure(page, 'history-merge', async () => {
      await open('/dashboard');
      const category = await apiWrite(page, 'POST', '/categories', { name: 'Best Film', description: 'The best film of the year.', status: 'active' });
      const answer = await apiClient(page).post('/auth/register', { name: 'Second Admin', email: 'second@example.com', password: 'second-password-1' });
      expect(answer.status).toBe(201);
      const other = await (await newContext(suite!.browser)).newPage();
      await signIn(other, server.url, { email: 'second@example.com', password: 'second-password-1' });
      await openInEnglish(other, `${server.url}/manage-category/edit/${String(category.id)}`);
      await open(`/manage-category/edit/${String(category.id)}`);
      // Both forms hold the record as it was before either saves.
      await expect.poll(() => page.locator('#category-edit_description').inputValue()).toBe('The best film of the year.');
      await expect.poll(() => other.locator('#category-edit_name').inputValue()).toBe('Best Film');

      await other.locator('#category-edit_description').fill('The best feature film of the year.');
      await other.getByRole('button', { name: 'Update Category' }).click();
      await expect.poll(() => toastOf(other, 'Category updated successfully!').isVisible()).toBe(true);

      await page.locator('#category-edit_name').fill('Best Feature Film');
      await page.getByRole('button', { name: 'Update Category' }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByText('Someone else saved this record').isVisible()).toBe(true);
      await expect.poll(() => dialog.getByText('Their change kept').isVisible()).toBe(true);
      expect(await dialog.getByText('Your change kept').isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'Save merged record' }).click();
      await expect.poll(() => toastOf(page, 'Category updated successfully!').isVisible()).toBe(true);
      const saved = (await apiClient(page).get(`/categories/${String(category.id)}`)).body.data;
      expect(saved.name).toBe('Best Feature Film');
      expect(saved.description).toBe('The best feature film of the year.');
      await other.context().close();
    });
  });
});
