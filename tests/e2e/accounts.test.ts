import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, signIn, startBrowserSuite, withScreenshotOnFailure, type BrowserSuite, type StartedServer } from '../helpers/e2e.js';
import { apiWrite } from '../helpers/e2e-page.js';

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  ({ server, browser } = suite = await startBrowserSuite());
  admin = await (await newContext(browser)).newPage();
  await signIn(admin, server.url);
});
afterAll(() => suite?.close());

const path = (page: Page) => new URL(page.url()).pathname;

describe('accounts: roles in the browser', () => {
  it('sends a juror to the jury portal after sign-in and shows the 403 page on console routes', async () => {
    const jury = await apiWrite(admin, 'POST', '/juries', { name: 'Putri Lestari', email: 'putri@example.com', round: 1, is_active: true });
    await apiWrite(admin, 'POST', '/auth/register', {
      name: 'Putri Lestari',
      email: 'putri.juror@example.com',
      password: 'putri-strong-passphrase',
      role: 'juror',
      jury_id: jury.id,
    });
    const page = await (await newContext(browser)).newPage();
    await withScreenshotOnFailure(page, 'juror-lands-on-jury', async () => {
      await page.goto(`${server.url}/login?lng=en`);
      await signIn(page, server.url, { email: 'putri.juror@example.com', password: 'putri-strong-passphrase', goto: false });
      await page.waitForURL('**/jury');
      await page.getByRole('heading', { name: 'Jury portal', exact: true }).waitFor();
      expect(await page.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
      await page.getByRole('link', { name: 'My examinations' }).first().waitFor();
      for (const target of ['/dashboard', '/manage-category']) {
        await page.goto(`${server.url}${target}`);
        await page.getByRole('heading', { name: 'Access Forbidden' }).waitFor();
        expect(path(page)).toBe('/403');
      }
      await page.goto(`${server.url}/`);
      await page.waitForURL('**/jury');
    });
  });
});
