import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, screenshot, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, fieldByLabel, seeText, switchLanguage, toast } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;
let api: ReturnType<typeof apiClient>;

const field = (label: string) => fieldByLabel(page, label);

describe('submittor (customer) screens in the browser', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    ({ server, page } = suite = await startSignedInSuite());
    api = apiClient(page);
  });
  afterAll(() => suite?.close());

  it("says 'No submittors found.' on an empty list and offers 'Create Submittor'", async () => {
    await page.goto(`${server.url}/manage-customer`);
    await seeText(page, 'No submittors found.');
    expect(await page.getByRole('link', { name: 'Create Submittor' }).isVisible()).toBe(true);
    expect(await page.title()).toContain('Manage Submittor');
  });

  it('shows each invalid input message of the create form in English and in Indonesian', async () => {
    await withScreenshotOnFailure(page, 'customers-validation', async () => {
      await page.goto(`${server.url}/create-customer`);
      await page.getByRole('button', { name: 'Create Customer' }).click();
      for (const message of ['Email is required', 'Password is required', 'Password confirmation is required', 'Max entries is required']) {
        await seeText(page, message);
      }
      await field('Email Address').fill('not-an-email');
      await field('Password').fill('12345');
      await field('Confirm Password').fill('54321');
      await field('Max Entries').fill('0');
      for (const message of [
        'Please enter a valid email address',
        'Password must be at least 6 characters',
        "Passwords don't match",
        'Max entries must be at least 1',
      ]) {
        await seeText(page, message);
      }
      await field('Password').fill('p'.repeat(51));
      await field('Max Entries').fill('101');
      await seeText(page, 'Password must be less than 50 characters');
      await seeText(page, 'Max entries must be less than 100');
      await screenshot(page, 'customer-create-invalid-1280');

      await switchLanguage(page, 'id');
      await seeText(page, 'Masukkan alamat email yang valid');
      await seeText(page, 'Kata sandi harus kurang dari 50 karakter');
      await seeText(page, 'Kata sandi tidak cocok');
      await seeText(page, 'Maksimum karya harus kurang dari 100');
      await field('Kata Sandi').fill('123');
      await field('Maksimum Karya').fill('0');
      await seeText(page, 'Kata sandi minimal 6 karakter');
      await seeText(page, 'Maksimum karya minimal 1');
      await field('Alamat Email').fill('');
      await field('Kata Sandi').fill('');
      await field('Konfirmasi Kata Sandi').fill('');
      await field('Maksimum Karya').fill('');
      for (const message of ['Email wajib diisi', 'Kata sandi wajib diisi', 'Konfirmasi kata sandi wajib diisi', 'Maksimum karya wajib diisi']) {
        await seeText(page, message);
      }
      await switchLanguage(page, 'en');
    });
  });

  it('creates a submittor, then refuses the same e-mail under the field', async () => {
    await withScreenshotOnFailure(page, 'customers-create', async () => {
      await page.goto(`${server.url}/create-customer`);
      await field('Email Address').fill('ana@agency.test');
      await field('Password').fill('secret-1');
      await field('Confirm Password').fill('secret-1');
      await field('Max Entries').fill('5');
      await page.getByRole('button', { name: 'Create Customer' }).click();
      await expect.poll(() => toast(page, 'Customer created successfully!').isVisible(), { timeout: 20_000 }).toBe(true);
      await page.waitForURL(`${server.url}/manage-customer`);
      await expect.poll(() => page.getByRole('row', { name: /ana@agency\.test/ }).isVisible()).toBe(true);

      await page.goto(`${server.url}/create-customer`);
      await field('Email Address').fill('ana@agency.test');
      await field('Password').fill('secret-2');
      await field('Confirm Password').fill('secret-2');
      await field('Max Entries').fill('3');
      await page.getByRole('button', { name: 'Create Customer' }).click();
      await seeText(page, 'This email address is already in use');
      expect(page.url()).toBe(`${server.url}/create-customer`);
    });
  });

  it("pages the list with 'page' and 'size' in the address", async () => {
    for (let n = 1; n <= 11; n += 1) {
      const email = `list${String(n).padStart(2, '0')}@agency.test`;
      const res = await api.post('/customers', { email, password: 'secret-1', password_confirmation: 'secret-1', max_entries: 2 });
      expect(res.status).toBe(201);
    }
    await page.goto(`${server.url}/manage-customer?page=3&size=5`);
    await seeText(page, 'Showing 11 to 12 of 12');
    expect(await page.locator('tbody tr').count()).toBe(2);
    await page.goto(`${server.url}/manage-customer`);
    await seeText(page, 'Showing 1 to 10 of 12');
    expect(await page.locator('tbody tr').count()).toBe(10);
  });

  it("shows the detail with 'Not provided' and the Account Information card", async () => {
    await withScreenshotOnFailure(page, 'customers-detail', async () => {
      await page.goto(`${server.url}/manage-customer?sort=email`);
      await page.getByRole('link', { name: 'ana@agency.test', exact: true }).click();
      await page.waitForURL(/\/manage-customer\/\d+$/);
      await seeText(page, 'Account Information');
      const notProvided = page.getByText('Not provided', { exact: true });
      await expect.poll(() => notProvided.count()).toBe(4); // name, phone, company, job title
      for (const text of ['Active', 'Can access system', 'Not Verified', 'Member Since', 'Last Updated']) await seeText(page, text);
      expect(await page.getByText(/^\((Just now|\d+ minutes? ago)\)$/).count()).toBe(2);
      expect(await page.getByRole('link', { name: 'Back to List' }).isVisible()).toBe(true);
      await screenshot(page, 'customer-detail-1280');
    });
  });

  it('edits a submittor: the rules, empty values as null, the Status select', async () => {
    await withScreenshotOnFailure(page, 'customers-edit', async () => {
      await page.getByRole('link', { name: 'Edit Customer' }).click();
      await page.waitForURL(/\/manage-customer\/edit\/\d+$/);
      await expect.poll(() => page.getByRole('heading', { name: 'Edit Customer - ana@agency.test' }).isVisible()).toBe(true);
      // The heading names the customer; the document keeps the spec's page title.
      await expect.poll(() => page.title()).toBe('Edit Submittor | Awards CMS');
      await field('Name').fill('Ana Lim');
      await field('Phone').fill('1'.repeat(21));
      await field('Company').fill('c'.repeat(101));
      await field('Job Title').fill('Planner');
      await page.getByRole('button', { name: 'Update Customer' }).click();
      await seeText(page, 'Phone must be less than 20 characters');
      await seeText(page, 'Company must be less than 100 characters');
      await field('Phone').fill('+60 12-345 6789');
      await field('Company').fill('Lim & Co');
      await field('Job Title').fill('');
      await page.getByRole('combobox', { name: /Status/ }).click();
      await page.getByRole('option', { name: 'Inactive' }).click();
      await screenshot(page, 'customer-edit-1280');
      await page.getByRole('button', { name: 'Update Customer' }).click();
      await expect.poll(() => toast(page, 'Customer updated successfully!').isVisible(), { timeout: 20_000 }).toBe(true);
      await page.waitForURL(`${server.url}/manage-customer`);
      await page.goto(`${server.url}/manage-customer?sort=email`);
      const row = page.getByRole('row', { name: /ana@agency\.test/ });
      await expect.poll(() => row.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
      expect(await row.getByText('Lim & Co').isVisible()).toBe(true);

      const stored = (await api.get('/customers?search=ana@agency.test')).body.data[0];
      expect(stored).toMatchObject({ name: 'Ana Lim', phone: '+60 12-345 6789', company: 'Lim & Co', job_title: null, is_active: false });
    });
  });

  it("shows 'Invalid customer ID' and 'Customer Not Found'", async () => {
    await page.goto(`${server.url}/manage-customer/0`);
    await seeText(page, 'Invalid customer ID');
    await page.goto(`${server.url}/manage-customer/999999`);
    await seeText(page, 'Customer Not Found');
    await page.goto(`${server.url}/manage-customer/edit/999999`);
    await seeText(page, 'Customer Not Found');
  });

  it("deletes after 'Delete Customer': No keeps the row, Yes deletes it", async () => {
    await withScreenshotOnFailure(page, 'customers-delete', async () => {
      await page.goto(`${server.url}/manage-customer?sort=email`);
      const row = page.getByRole('row', { name: /ana@agency\.test/ });
      await row.getByRole('button', { name: /Delete/ }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByText('Delete Customer').first().isVisible()).toBe(true);
      expect(await dialog.getByText('Are you sure you want to delete customer "ana@agency.test"?').isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'No' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await row.isVisible()).toBe(true);

      await row.getByRole('button', { name: /Delete/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await expect.poll(() => toast(page, 'Customer deleted successfully!').isVisible(), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => row.count()).toBe(0);
      expect((await api.get('/customers?search=ana@agency.test')).body.meta.total).toBe(0);
    });
  });
});
