import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiWrite } from '../helpers/e2e-page.js';

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;

const JUROR_EMAIL = 'juror.media@example.com';
const JUROR_PASSWORD = 'juror-media-passphrase';
/** The console's image sources, as they were before media: its own origin and data: URLs only. */
const IMG_SRC = "img-src 'self' data:";

/** Every request a page makes that leaves the console's origin (none may: no picture is hot-linked). */
function foreignRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(server.url) && !url.startsWith('data:')) seen.push(url);
  });
  return seen;
}

/** The natural width of the first loaded picture matching `selector` (0 while none has loaded). */
async function loadedWidth(page: Page, selector: string): Promise<number> {
  const image = page.locator(selector).first();
  await image.waitFor();
  await page.waitForFunction((sel) => {
    const img = document.querySelector<HTMLImageElement>(sel);
    return Boolean(img?.complete);
  }, selector);
  return image.evaluate((img: HTMLImageElement) => img.naturalWidth);
}

beforeAll(async () => {
  ({ server, browser } = suite = await startBrowserSuite({ DEMO_DATA: 'true' }));
  admin = await (await newContext(browser)).newPage();
  await signIn(admin, server.url);
}, 240_000);
afterAll(() => suite?.close());

describe('media', () => {
  it("shows the demo's generated pictures on the console's contest detail, from the console itself", async () => {
    const foreign = foreignRequests(admin);
    await withScreenshotOnFailure(admin, 'media-contest-detail', async () => {
      const page = await admin.goto(`${server.url}/manage-contest/1?lng=en`);
      expect(page?.headers()['content-security-policy']).toContain(`${IMG_SRC};`);
      expect(await loadedWidth(admin, 'img[data-media-id]')).toBeGreaterThan(0);
      expect(await admin.locator('img[data-media-id]').first().getAttribute('src')).toMatch(/^\/api\/media\/\d+\/content\?variant=thumb&/);
    });
    expect(foreign).toEqual([]);
  });

  it("shows an entry's key visual to a juror assigned to it (naturalWidth > 0), the CSP unchanged", async () => {
    // A parallel Round 1 exam of the first demo category, opened, with jurors on every entry.
    const exam = await apiWrite(admin, 'POST', '/exams', {
      name: 'Media Round 1',
      category_id: 1,
      round: 1,
      parallel_panel: true,
      max_score: 100,
      criteria: [{ key: 'idea', label: 'Idea', weight: 1, maximum: 10 }],
    });
    await apiWrite(admin, 'POST', `/exams/${exam.id}/status`, { status: 'open' });
    const plan = (await apiWrite(admin, 'POST', `/exams/${exam.id}/auto-assign`, { per_entry: 3, dry_run: false })) as { planned: Array<{ jury_id: number }> };
    await apiWrite(admin, 'POST', '/auth/register', {
      name: 'Media Juror',
      email: JUROR_EMAIL,
      password: JUROR_PASSWORD,
      role: 'juror',
      jury_id: plan.planned[0]!.jury_id,
    });

    const juror = await (await newContext(browser)).newPage();
    const foreign = foreignRequests(juror);
    await withScreenshotOnFailure(juror, 'media-jury-portal', async () => {
      await juror.goto(`${server.url}/login?lng=en`);
      await signIn(juror, server.url, { email: JUROR_EMAIL, password: JUROR_PASSWORD, goto: false });
      await juror.waitForURL('**/jury');
      const portal = await juror.goto(`${server.url}/jury?exam=${exam.id}&lng=en`);
      const csp = portal?.headers()['content-security-policy'] ?? '';
      expect(csp.split(';').filter((directive) => directive.trim().startsWith('img-src'))).toEqual([IMG_SRC]);
      await juror.getByRole('navigation', { name: 'Entries to score' }).getByRole('button').first().click();
      await juror.waitForURL(/assignment=\d+/);
      const keyVisual = 'img[alt="Key visual"][data-media-id]';
      expect(await loadedWidth(juror, keyVisual)).toBe(600);
    });
    expect(foreign).toEqual([]);
  });
});
