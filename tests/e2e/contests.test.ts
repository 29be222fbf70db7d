import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInSuite, type StartedServer, screenshot, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, fieldByLabel, seeText } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;
let api: ReturnType<typeof apiClient>;

/** The ids of the rows on screen, in order, read from their 'View Details' links. */
async function rowIds(): Promise<number[]> {
  const hrefs = await page
    .locator('tbody tr')
    .getByRole('link', { name: /View details/ })
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((href) => Number(/\/manage-contest\/(\d+)$/.exec(href)?.[1]));
}

/** The ids the API lists first for a query (the screen must show the same). */
async function apiIds(query: string): Promise<{ ids: number[]; total: number }> {
  const res = await api.get(`/contests?${query}`);
  expect(res.status).toBe(200);
  return { ids: res.body.data.map((c: { id: number }) => c.id), total: res.body.meta.total };
}

const search = () => new URL(page.url()).searchParams;
const agency = () => fieldByLabel(page, 'Agency Name');
/** The customer filter's searchable select: its button, named 'Choose by name: <chosen or Select One>'. */
const customerId = () => page.getByRole('button', { name: /^Choose by name: / });

describe('submission (contest) screens in the browser', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    // Contests are read-only through the API: the demo data set provides them.
    ({ server, page } = suite = await startSignedInSuite({ DEMO_DATA: 'true' }));
    api = apiClient(page);
  });
  afterAll(() => suite?.close());

  it('lists 15 contests oldest first with the total, read-only', async () => {
    await withScreenshotOnFailure(page, 'contests-list', async () => {
      const expected = await apiIds('page=1');
      expect(expected.total).toBeGreaterThan(15);
      await page.goto(`${server.url}/manage-contest`);
      await seeText(page, `${expected.total} total contests`);
      await expect.poll(rowIds).toEqual(expected.ids);
      expect(expected.ids).toHaveLength(15);
      expect(await page.getByRole('link', { name: /^Create/ }).count()).toBe(0);
      expect(
        await page
          .locator('tbody')
          .getByRole('link', { name: /^Edit / })
          .count(),
      ).toBe(0);
      expect(
        await page
          .locator('tbody')
          .getByRole('button', { name: /Delete/ })
          .count(),
      ).toBe(0);
      await screenshot(page, 'contests-list-1280');
    });
  });

  it('opens a list cold without the loading skeleton: the first render is the shell with the screen', async () => {
    await withScreenshotOnFailure(page, 'contests-cold-open', async () => {
      // Notes, from before any script of the page runs, whether the Suspense skeleton ('Loading...'
      // over grey bars, aria-busy) was ever in the document before the first row.
      await page.addInitScript(() => {
        const w = window as unknown as { __skeletonSeen?: boolean; __rowSeen?: boolean };
        new MutationObserver(() => {
          if (w.__rowSeen) return;
          if (document.querySelector('[role="status"][aria-busy="true"]')) w.__skeletonSeen = true;
          if (document.querySelector('tbody tr')) w.__rowSeen = true;
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(`${server.url}/manage-contest?page=2`);
      await expect.poll(() => page.evaluate(() => (window as unknown as { __rowSeen?: boolean }).__rowSeen ?? false)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __skeletonSeen?: boolean }).__skeletonSeen ?? false)).toBe(false);
      await expect.poll(rowIds).toEqual((await apiIds('page=2')).ids);
      // Back where the next test starts.
      await page.goto(`${server.url}/manage-contest`);
      await expect.poll(rowIds).toEqual((await apiIds('page=1')).ids);
    });
  });

  it("shows the list as the server renders it, live before the app has loaded: 'Next' works, and what is typed there is kept", async () => {
    await withScreenshotOnFailure(page, 'contests-first-screen', async () => {
      const [second, third] = [(await apiIds('page=2')).ids, (await apiIds('page=3')).ids];
      // The server's render thread is up (the e2e server starts it with itself).
      const firstScreenStatus = () =>
        page.evaluate(async () => {
          const token = sessionStorage.getItem('auth_token') ?? '';
          return (await fetch('/api/meta/first-screen?path=%2Fmanage-contest', { headers: { authorization: `Bearer ${token}` } })).status;
        });
      await expect.poll(firstScreenStatus, { timeout: 20_000 }).toBe(200);
      // The list screen's chunk is held back: the app cannot render before the server's first screen shows.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const chunk = /\/assets\/chunks\/entity-routes-[^/]*\.js$/;
      await page.route(chunk, async (route) => {
        await held;
        // The page may have gone on meanwhile (the request is then cancelled).
        await route.continue().catch(() => undefined);
      });
      const serverRows = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('#root > [data-first-screen] tbody tr a[href^="/manage-contest/"]')]
            .map((a) => Number(/\/manage-contest\/(\d+)$/.exec(a.getAttribute('href') ?? '')?.[1]))
            .filter((id, at, all) => all.indexOf(id) === at),
        );
      try {
        await page.goto(`${server.url}/manage-contest`, { waitUntil: 'commit' });
        await expect.poll(serverRows, { timeout: 15_000 }).toEqual((await apiIds('page=1')).ids);
        // With the screen's page title, and nothing inert.
        expect(await page.title()).toBe('Manage Submission | Awards CMS');
        expect(await page.evaluate(() => document.querySelector('[inert]'))).toBeNull();
        // 'Next' works at once, by keyboard: the server's render of page 2 replaces the screen, the
        // address follows, the focus stays on 'Next'.
        await page.getByRole('button', { name: 'Next' }).focus();
        await page.keyboard.press('Enter');
        await expect.poll(serverRows, { timeout: 15_000 }).toEqual(second);
        expect(search().get('page')).toBe('2');
        expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Next');
        // And by mouse.
        await page.getByRole('button', { name: 'Next' }).click();
        await expect.poll(serverRows, { timeout: 15_000 }).toEqual(third);
        expect(search().get('page')).toBe('3');
        // Typed before the app is there: kept, with the focus.
        await agency().click();
        await page.keyboard.type('Studio');
        expect(await page.evaluate(() => document.querySelector('#root > [data-first-screen]') !== null)).toBe(true);
      } finally {
        release();
        await page.unroute(chunk);
      }
      // The app's own screen replaces it: page 3, live, with what was typed and the focus in the field.
      await expect.poll(() => page.evaluate(() => document.querySelector('#root > [data-first-screen]') === null)).toBe(true);
      await expect.poll(rowIds).toEqual(third);
      await expect.poll(() => agency().inputValue()).toBe('Studio');
      await expect.poll(() => agency().evaluate((field) => field === document.activeElement)).toBe(true);
      // Back: page 2, as the browser's history has it.
      await page.goBack();
      await expect.poll(rowIds).toEqual(second);
      await page.goto(`${server.url}/manage-contest`);
      await expect.poll(rowIds).toEqual((await apiIds('page=1')).ids);
    });
  });

  it("opens 'View Video' in a new tab without an opener, and shows 'No video' when there is none", async () => {
    const all = (await api.get('/contests?per_page=100')).body.data as Array<Record<string, unknown>>;
    const video = page.getByRole('link', { name: 'View Video' }).first();
    await expect.poll(() => video.isVisible()).toBe(true);
    expect(await video.getAttribute('target')).toBe('_blank');
    expect(await video.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await video.getAttribute('href')).toMatch(/^https?:\/\//);
    const withoutVideo = all.findIndex((c) => !c.video_link);
    expect(withoutVideo).toBeGreaterThanOrEqual(0);
    await page.goto(`${server.url}/manage-contest?page=${Math.floor(withoutVideo / 15) + 1}`);
    await seeText(page, 'No video');
  });

  it('applies the agency name filter on Apply, back to page 1, kept in the URL and over a reload', async () => {
    await withScreenshotOnFailure(page, 'contests-filter', async () => {
      const one = (await api.get('/contests?per_page=1&include=customer')).body.data[0];
      const word = String(one.customer.company).split(' ').at(-2)!.toLowerCase();
      const expected = await apiIds(`q[agency_name]=${encodeURIComponent(word)}`);

      await page.goto(`${server.url}/manage-contest?page=2`);
      await agency().fill(word);
      // Nothing changes before Apply.
      await page.waitForTimeout(300);
      expect(search().get('q[agency_name]')).toBeNull();
      await page.getByRole('button', { name: 'Apply Filters' }).click();
      await expect.poll(() => search().get('q[agency_name]')).toBe(word);
      expect(search().get('page')).toBeNull();
      await seeText(page, `${expected.total} total contests`);
      await expect.poll(rowIds).toEqual(expected.ids);

      await page.reload();
      await seeText(page, `${expected.total} total contests`);
      await expect.poll(() => agency().inputValue()).toBe(word);
      await expect.poll(rowIds).toEqual(expected.ids);
    });
  });

  it('ignores a customer ID in the URL unless it is a positive integer', async () => {
    const all = await apiIds('page=1');
    await page.goto(`${server.url}/manage-contest?q[customer_id]=-4`);
    await seeText(page, `${all.total} total contests`);
    await expect.poll(rowIds).toEqual(all.ids);
    expect(await customerId().textContent()).toContain('Select One');
  });

  it('picks the customer through the searchable select, kept in the URL, shown by name after a reload, cleared by Reset', async () => {
    await withScreenshotOnFailure(page, 'contests-customer-filter', async () => {
      const first = (await api.get('/contests?per_page=1&include=customer')).body.data[0];
      const customer = { ...(first.customer as { name: string | null; email: string }), id: first.customer_id as number };
      expect(customer.name).toBeTruthy();
      const label = `${customer.name} (#${customer.id})`;
      const expected = await apiIds(`q[customer_id]=${customer.id}`);

      await page.goto(`${server.url}/manage-contest?page=2`);
      await customerId().click();
      // Part of the e-mail, searched on the server.
      await page.getByPlaceholder('Find option').fill(customer.email.split('@')[0]!);
      // The accessible name holds the label then the e-mail; a substring match on 'Name (#id)' is that one customer.
      const option = page.getByRole('option', { name: label });
      await expect.poll(() => option.count()).toBe(1);
      expect(await option.textContent()).toContain(customer.email);
      await option.click();
      await expect.poll(() => customerId().textContent()).toContain(label);
      expect(search().get('q[customer_id]')).toBeNull();
      await page.getByRole('button', { name: 'Apply Filters' }).click();
      await expect.poll(() => search().get('q[customer_id]')).toBe(String(customer.id));
      expect(search().get('page')).toBeNull();
      await seeText(page, `${expected.total} total contests`);
      await expect.poll(rowIds).toEqual(expected.ids);

      await page.reload();
      await seeText(page, `${expected.total} total contests`);
      await expect.poll(() => customerId().textContent()).toContain(label);
      await expect.poll(rowIds).toEqual(expected.ids);

      await page.getByRole('button', { name: 'Reset Filters' }).click();
      await expect.poll(() => [...search().keys()]).toEqual([]);
      await expect.poll(() => customerId().textContent()).toContain('Select One');
    });
  });

  it('sorts by Sort By and direction, then Reset Filters restores page 1, created date ascending', async () => {
    await withScreenshotOnFailure(page, 'contests-sort-reset', async () => {
      await page.goto(`${server.url}/manage-contest?page=2`);
      await page.getByRole('combobox', { name: 'Sort By' }).click();
      await page.getByRole('option', { name: 'Updated Date' }).click();
      await page.getByRole('combobox', { name: 'Direction' }).click();
      await page.getByRole('option', { name: 'DESC' }).click();
      await page.getByRole('button', { name: 'Apply Filters' }).click();
      await expect.poll(() => search().get('sort')).toBe('updated_at');
      expect(search().get('direction')).toBe('desc');
      expect(search().get('page')).toBeNull();
      await expect.poll(rowIds).toEqual((await apiIds('sort=updated_at&direction=desc')).ids);

      await agency().fill('a');
      await page.getByRole('button', { name: 'Apply Filters' }).click();
      await expect.poll(() => search().get('q[agency_name]')).toBe('a');
      await page.getByRole('button', { name: 'Page 2', exact: true }).click();
      await expect.poll(() => search().get('page')).toBe('2');

      await page.getByRole('button', { name: 'Reset Filters' }).click();
      await expect.poll(() => [...search().keys()]).toEqual([]);
      await expect.poll(() => agency().inputValue()).toBe('');
      await expect.poll(() => page.getByRole('combobox', { name: 'Sort By' }).textContent()).toContain('Created Date');
      await expect.poll(() => page.getByRole('combobox', { name: 'Direction' }).textContent()).toContain('ASC');
      await expect.poll(rowIds).toEqual((await apiIds('page=1')).ids);
    });
  });

  it("shows the filtered empty state, and 'Clear all filters' brings every contest back", async () => {
    await withScreenshotOnFailure(page, 'contests-empty', async () => {
      await page.goto(`${server.url}/manage-contest`);
      await agency().fill('no such agency anywhere');
      await page.getByRole('button', { name: 'Apply Filters' }).click();
      await seeText(page, 'No contests found');
      await seeText(page, 'Try adjusting your filters to see more results.');
      expect(await page.getByRole('navigation', { name: 'Pagination' }).count()).toBe(0);
      await screenshot(page, 'contests-empty-filtered-1280');
      await page.getByRole('button', { name: 'Clear all filters' }).click();
      await expect.poll(() => [...search().keys()]).toEqual([]);
      await expect.poll(rowIds).toEqual((await apiIds('page=1')).ids);
    });
  });

  it('shows a contest with its campaign: every section, mailto and tel links', async () => {
    await withScreenshotOnFailure(page, 'contests-detail-campaign', async () => {
      const contest = (await api.get('/contests?per_page=1&include=customer,campaign')).body.data[0];
      const full = (await api.get(`/contests/${contest.id}?include=customer,campaign,category`)).body.data;
      expect(full.campaign).not.toBeNull();
      await page.goto(`${server.url}/manage-contest`);
      await page
        .locator('tbody tr')
        .first()
        .getByRole('link', { name: /View details/ })
        .click();
      await page.waitForURL(`${server.url}/manage-contest/${contest.id}`);
      for (const section of [
        'Basic Information',
        'Customer & Category Information',
        'Campaign Information',
        'Media & Links',
        'Strategy & Content',
        'Key Performance Indicators',
        'Customer Information',
        'Timestamps',
      ]) {
        await seeText(page, section);
      }
      await seeText(page, full.campaign.name);
      expect(await page.getByRole('link', { name: full.customer.email }).getAttribute('href')).toBe(`mailto:${full.customer.email}`);
      expect(await page.getByRole('link', { name: full.customer.phone }).getAttribute('href')).toMatch(/^tel:\+?\d+$/);
      expect(await page.getByText(/\(\d+ days? ago\)|\(Just now\)|\(\d+ (hours?|minutes?) ago\)/).count()).toBeGreaterThanOrEqual(2);
      await screenshot(page, 'contest-detail-campaign-1280');
    });
  });

  it('hides the campaign section of a contest without a campaign', async () => {
    await withScreenshotOnFailure(page, 'contests-detail-no-campaign', async () => {
      // Deleting a campaign leaves its contests without one (the relation is set-null).
      const contest = (await api.get('/contests?per_page=1&sort=updated_at&direction=desc')).body.data[0];
      expect((await api.delete(`/campaigns/${contest.campaign_id}`)).status).toBe(204);
      await page.goto(`${server.url}/manage-contest/${contest.id}`);
      await seeText(page, 'Basic Information');
      await seeText(page, 'Key Performance Indicators');
      expect(await page.getByText('Campaign Information', { exact: true }).count()).toBe(0);
    });
  });

  it("shows 'Contest Not Found' and 'Invalid contest ID'", async () => {
    await page.goto(`${server.url}/manage-contest/999999`);
    await seeText(page, 'Contest Not Found');
    await seeText(page, 'The requested contest with ID 999999 was not found.');
    // The spec: 'Contest Not Found' offers 'Back to List' (the load error keeps 'Back to Contest List').
    expect(await page.getByRole('link', { name: 'Back to List', exact: true }).getAttribute('href')).toBe('/manage-contest');
    await page.goto(`${server.url}/manage-contest/abc`);
    await seeText(page, 'Invalid contest ID');
  });
});
