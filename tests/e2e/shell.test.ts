import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;

beforeAll(async () => ({ server, browser } = suite = await startBrowserSuite()));
afterAll(() => suite?.close());

async function freshPage(width = 1280): Promise<Page> {
  return (await newContext(browser, width, width < 600 ? 844 : 800)).newPage();
}

/**
 * Signs in through `/login?lng=en`: an explicit language choice before sign-in wins over (and is
 * saved to) the profile, so tests after the language tests still see English.
 */
async function signInEnglish(page: Page): Promise<void> {
  await page.goto(`${server.url}/login?lng=en`);
  await signIn(page, server.url, { goto: false });
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, exact: typeof name === 'string' }).first();
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true }).first();

describe('shell: sign-in', () => {
  it('checks an empty and a wrong sign-in', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'empty-and-wrong-sign-in', async () => {
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByText('Email is required').waitFor();
      await page.getByText('Password is required').waitFor();
      await page.getByLabel('Email').fill('  not-an-address ');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByText('Please enter a valid email address').waitFor();
      await page.getByLabel('Email').fill('admin@example.com');
      await page.getByLabel('Password').fill('wrong-password');
      await page.getByRole('button', { name: 'Login' }).click();
      await toast(page, 'The e-mail address or password is incorrect.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.evaluate(() => sessionStorage.getItem('auth_token'))).toBeNull();
    });
  });

  it('lands on the dashboard, stores the session as the spec says, and survives a reload', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'sign-in-dashboard', async () => {
      await page.goto(`${server.url}/login`);
      await page.getByLabel('Email').fill('  admin@example.com ');
      await page.getByLabel('Password').fill('correct-horse-battery');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/dashboard');
      await toast(page, 'Login successful!').waitFor();
      await heading(page, 'Dashboard').waitFor();
      expect(await page.title()).toBe('Dashboard | Awards CMS');
      const stored = await page.evaluate(() => ({
        token: sessionStorage.getItem('auth_token'),
        expiresAt: Number(sessionStorage.getItem('auth_expires_at')),
        refresh: sessionStorage.getItem('auth_refresh_token'),
        user: localStorage.getItem('auth_user') ?? '',
      }));
      expect(stored.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(stored.refresh).toBeTruthy();
      expect(stored.expiresAt - Date.now()).toBeGreaterThan(3_500_000);
      expect(JSON.parse(stored.user).email).toBe('admin@example.com');
      expect(stored.user).not.toContain(stored.token!);
      expect(stored.user).not.toContain(stored.refresh!);
      await page.getByText(/^Session: \d+:\d\d left$/).waitFor();

      await page.reload();
      await heading(page, 'Dashboard').waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard');
    });
  });

  it('returns to a deep link asked for while signed out', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'deep-link', async () => {
      await page.goto(`${server.url}/helpdesk`);
      await page.waitForURL('**/login');
      await signIn(page, server.url, { goto: false });
      await page.waitForURL('**/helpdesk');
      await heading(page, 'Helpdesk').waitFor();
    });
  });
});

describe('shell: sessions and sign-out', () => {
  it("sends the first browser to 'You have been logged out' when the same admin signs in elsewhere", async () => {
    const first = await freshPage();
    const second = await freshPage();
    await withScreenshotOnFailure(first, 'concurrent-session', async () => {
      await signInEnglish(first);
      await heading(first, 'Dashboard').waitFor();
      await signInEnglish(second);
      await heading(second, 'Dashboard').waitFor();
      await first.getByRole('link', { name: 'Profile' }).first().click();
      await heading(first, 'You have been logged out').waitFor();
      await first.getByText('Please make sure your account is not disabled and that you are not logged in on another browser or device.').waitFor();
      expect(await first.evaluate(() => sessionStorage.getItem('auth_token'))).toBeNull();
      await first.getByRole('link', { name: 'Sign in again' }).click();
      await first.waitForURL('**/login');
    });
  });

  it('asks before signing out: No keeps the session, Yes ends it', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'logout', async () => {
      await signInEnglish(page);
      await heading(page, 'Dashboard').waitFor();
      await page.getByRole('button', { name: 'Logout' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Are you sure you want to logout?').waitFor();
      await dialog.getByRole('button', { name: 'No' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      expect(await page.evaluate(() => sessionStorage.getItem('auth_token'))).toBeTruthy();

      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await page.waitForURL('**/login');
      await page.getByText('You have successfully logged out').waitFor();
      await toast(page, 'Logged out successfully!').waitFor();
      expect(await page.evaluate(() => [sessionStorage.getItem('auth_token'), localStorage.getItem('auth_user')])).toEqual([null, null]);

      await page.goto(`${server.url}/dashboard`);
      await page.waitForURL('**/login');
    });
  });
});

describe('shell: languages', () => {
  it('follows ?lng=ms and ?lng=id and the switcher, and keeps the choice over a reload', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'languages', async () => {
      await page.goto(`${server.url}/login?lng=ms`);
      await heading(page, 'Log masuk').waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('ms');
      await signIn(page, server.url, { goto: false });
      await heading(page, 'Papan Pemuka').waitFor();
      await page.reload();
      await heading(page, 'Papan Pemuka').waitFor();
      expect(await page.title()).toBe('Papan Pemuka | Awards CMS');

      await page.goto(`${server.url}/dashboard?lng=id`);
      await heading(page, 'Dasbor').waitFor();
      await page.getByRole('link', { name: 'Perusahaan' }).first().waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('id');

      await page.getByTestId('language-switcher').click();
      await heading(page, 'Papan Pemuka').waitFor();
      await page.getByTestId('language-switcher').click();
      await heading(page, 'Dashboard').waitFor();
      await page.getByTestId('language-switcher').click();
      await heading(page, 'Dasbor').waitFor();
      await page.goto(`${server.url}/dashboard`);
      await heading(page, 'Dasbor').waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('id');
    });
  });

  it('shows no untranslated key on any menu route, in Malay', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'untranslated', async () => {
      await page.goto(`${server.url}/login?lng=ms`);
      await signIn(page, server.url, { goto: false });
      const routes = [
        '/dashboard',
        '/import-data',
        '/manage-applicant',
        '/manage-award-category',
        '/profile',
        '/faq',
        '/helpdesk',
        '/privacy-policy',
        '/terms-and-conditions',
        '/does-not-exist',
        '/403',
      ];
      const found: string[] = [];
      for (const route of routes) {
        await page.goto(`${server.url}${route}`);
        await page.locator('h1').first().waitFor();
        // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees; textContent would also read inline scripts and hidden nodes
        const text = await page.locator('body').innerText();
        const keys = text.match(/\b(?:common|nav|pages|entities|validation|errors|toasts)\.[A-Za-z_]+[\w.]*/g);
        if (keys) found.push(`${route}: ${keys.join(', ')}`);
      }
      expect(found).toEqual([]);
    });
  });
});

describe('shell: layout and error pages', () => {
  it('opens and closes the slide-in menu on a 390 px wide screen', async () => {
    const page = await freshPage(390);
    await withScreenshotOnFailure(page, 'mobile-menu', async () => {
      await signInEnglish(page);
      await heading(page, 'Dashboard').waitFor();
      const menu = page.getByTestId('mobile-menu');
      expect(await menu.isVisible()).toBe(false);
      expect(await page.locator('aside.app-sidebar').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await menu.waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Open menu' }).click();
      await menu.getByRole('link', { name: 'Profile' }).click();
      await page.waitForURL('**/profile');
      await menu.waitFor({ state: 'hidden' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });

  it('collapses the sidebar on a large screen and remembers it', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'sidebar-collapse', async () => {
      await signInEnglish(page);
      await page.getByRole('button', { name: 'Collapse sidebar' }).click();
      await page.reload();
      await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
      expect(await page.locator('aside.app-sidebar').getAttribute('data-collapsed')).toBe('true');
    });
  });

  it('shows the 404 page with Go back to / and the 403 page with Go Back one step', async () => {
    const page = await freshPage();
    await withScreenshotOnFailure(page, 'error-pages', async () => {
      await signInEnglish(page);
      await page.goto(`${server.url}/no-such-page`);
      await heading(page, "Looks like you're lost").waitFor();
      expect(await page.title()).toBe('404 Not Found | Awards CMS');
      await page.getByRole('link', { name: 'Go back' }).click();
      await page.waitForURL('**/dashboard');

      await page.goto(`${server.url}/faq`);
      await heading(page, 'FAQ').waitFor();
      await page.goto(`${server.url}/403`);
      await heading(page, 'Access Forbidden').waitFor();
      await page.getByText("You don't have permission to access this resource. Please contact your administrator if you believe this is an error.").waitFor();
      await page.getByRole('button', { name: 'Go Back' }).click();
      await page.waitForURL('**/faq');
    });
  });
});
