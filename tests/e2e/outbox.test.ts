import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiWrite, switchLanguage, toast } from '../helpers/e2e-page.js';

let suite: BrowserSuite | undefined;
let admin: Page;

beforeAll(async () => {
  // No SMTP_URL: every mail stays in the outbox, unsent.
  suite = await startBrowserSuite();
  const context = await newContext(suite.browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
  admin = await context.newPage();
  await signIn(admin, suite.server.url);
});
afterAll(() => suite?.close());

describe('the outbox screen', () => {
  it('lists unsent mail, copies an invitation link, cancels one message and reads in Malay', async () => {
    const url = suite!.server.url;
    await apiWrite(admin, 'POST', '/accounts', { name: 'Nur Aisyah', email: 'aisyah@example.com', role: 'admin' });
    await apiWrite(admin, 'POST', '/accounts', { name: 'Budi Santoso', email: 'budi@example.com', role: 'admin' });
    await withScreenshotOnFailure(admin, 'outbox-screen', async () => {
      await admin.goto(`${url}/outbox`);
      await admin.getByRole('heading', { name: 'Outbox', exact: true }).waitFor();
      expect(await admin.title()).toContain('Outbox');
      await admin.getByText('No mail server is set (SMTP_URL)', { exact: false }).waitFor();
      const row = admin.getByRole('row').filter({ hasText: 'aisyah@example.com' });
      await row.getByText('Waiting', { exact: true }).waitFor();
      await row.getByText('Invitation', { exact: true }).waitFor();

      // The link an admin passes on when no mail goes out.
      await admin.getByRole('button', { name: 'Copy the link for aisyah@example.com' }).click();
      await toast(admin, 'Link for aisyah@example.com copied. It is secret: give it to that person only.').waitFor();
      const copied = await admin.evaluate(() => navigator.clipboard.readText());
      expect(copied).toMatch(/\/set-password\?token=[A-Za-z0-9_-]+$/);

      // Cancel one, by keyboard on its checkbox.
      await admin.getByRole('checkbox', { name: 'Select the message to budi@example.com' }).focus();
      await admin.keyboard.press('Space');
      await admin.getByRole('button', { name: 'Cancel 1 message' }).click();
      await toast(admin, '1 message cancelled.').waitFor();
      await admin.getByRole('row').filter({ hasText: 'budi@example.com' }).getByText('Cancelled', { exact: true }).waitFor();

      await switchLanguage(admin, 'ms');
      await admin.getByRole('heading', { name: 'Peti keluar', exact: true }).waitFor();
      await admin.getByRole('row').filter({ hasText: 'aisyah@example.com' }).getByText('Menunggu', { exact: true }).waitFor();
      await switchLanguage(admin, 'en');
    });
  });
});
