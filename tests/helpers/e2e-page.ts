// Page-level helpers shared by the browser tests (not a test file itself).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * An API client that borrows the page's own session (its access token and XSRF cookie), for
 * setting up and checking data: signing in separately would end the page's session, since a new
 * sign-in replaces the admin's other sessions. The page must be on the app's origin.
 */
export function apiClient(page: Page) {
  const call = async (method: string, apiPath: string, body?: unknown) =>
    page.evaluate(
      async ({ method, apiPath, body }) => {
        const token = sessionStorage.getItem('auth_token') ?? '';
        const xsrf = /(?:^|; )XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '';
        const res = await fetch(`/api${apiPath}`, {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            authorization: `Bearer ${token}`,
            'x-access-token': token,
            'x-xsrf-token': decodeURIComponent(xsrf),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
      },
      { method, apiPath, body },
    );
  return {
    get: (apiPath: string) => call('GET', apiPath),
    post: (apiPath: string, body: unknown) => call('POST', apiPath, body),
    put: (apiPath: string, body: unknown) => call('PUT', apiPath, body),
    delete: (apiPath: string) => call('DELETE', apiPath),
  };
}

/** A write through {@link apiClient} that must succeed; returns the record (`data`). */
export async function apiWrite(page: Page, method: 'POST' | 'PUT', apiPath: string, body: unknown): Promise<Record<string, unknown>> {
  const client = apiClient(page);
  const answer = method === 'POST' ? await client.post(apiPath, body) : await client.put(apiPath, body);
  if (answer.status >= 300) throw new Error(`${method} ${apiPath} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** A form field by its label, with or without the required marker ('Email Address *'). */
export const fieldByLabel = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));

/** Clicks the header's language switcher until the page is in `language`. */
export async function switchLanguage(page: Page, language: 'en' | 'id' | 'ms'): Promise<void> {
  await page.getByTestId('language-switcher').filter({ visible: true }).first().waitFor();
  for (let i = 0; i < 3; i += 1) {
    if ((await page.locator('html').getAttribute('lang')) === language) return;
    await page.getByTestId('language-switcher').filter({ visible: true }).first().click();
    await page.waitForTimeout(150);
  }
  expect(await page.locator('html').getAttribute('lang')).toBe(language);
}

/** Goes to `url` and makes the page English (the language is saved in the profile, so a failed test may leave another). */
export async function openInEnglish(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await switchLanguage(page, 'en');
}

/** Waits until `text` is visible on the page (exact match). */
export async function seeText(page: Page, text: string): Promise<void> {
  await expect.poll(() => page.getByText(text, { exact: true }).first().isVisible(), { timeout: 15_000 }).toBe(true);
}

/** The toast with this exact text. */
export const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });
