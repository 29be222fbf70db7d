import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient } from '../helpers/e2e-page.js';

/** The machine is shared and slow at times: wait up to 20 s for what the screen should show. */
const POLL = { timeout: 20_000 };
const PROGRAMME = 'Malaysian Digital Awards 2026';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

describe("the product's name and the time-zone rule on screen", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    ({ server, page } = suite = await startSignedInSuite());
  });
  afterAll(() => suite?.close());

  it("titles every page, the brand and the footer with the programme's own name once an admin sets it", async () => {
    await withScreenshotOnFailure(page, 'product-name', async () => {
      await page.goto(`${server.url}/dashboard?lng=ms`);
      await expect.poll(() => page.title(), POLL).toBe('Papan Pemuka | Awards CMS');
      const answer = await apiClient(page).put('/settings/product', { name: PROGRAMME });
      expect(answer.status).toBe(200);
      await page.goto(`${server.url}/manage-category?lng=ms`);
      await expect.poll(() => page.title(), POLL).toMatch(new RegExp(` \\| ${PROGRAMME}$`));
      await expect.poll(() => page.locator('.brand-link').filter({ visible: true }).first().textContent(), POLL).toBe(PROGRAMME);
      await expect.poll(() => page.locator('footer').textContent(), POLL).toContain(`© ${new Date().getFullYear()} ${PROGRAMME}.`);
      // Times are the reader's: the footer names the zone the screens' times are in.
      expect(await page.getByTestId('time-zone-note').textContent()).toMatch(/^Masa dipaparkan dalam zon waktu anda \(.+\)\.$/);
      // The sign-in page (no session) titles itself with it too.
      const context = await suite!.browser.newContext();
      const login = await context.newPage();
      await login.goto(`${server.url}/login?lng=id`);
      await expect.poll(() => login.title(), POLL).toMatch(new RegExp(` \\| ${PROGRAMME}$`));
      await context.close();
      expect((await apiClient(page).put('/settings/product', { name: null })).body.data.name).toBe('Awards CMS');
    });
  });
});
