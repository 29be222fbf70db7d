import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite } from '../helpers/e2e-page.js';

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;
let juror: Page;

const JUROR_EMAIL = 'juror.bell@example.com';
const JUROR_PASSWORD = 'juror-bell-passphrase';

beforeAll(async () => {
  ({ server, browser } = suite = await startBrowserSuite());
  admin = await (await newContext(browser)).newPage();
  await signIn(admin, server.url);
  // The events: an application approved makes the juror's account, mailed the approval and the invitation.
  const applicant = await apiWrite(admin, 'POST', '/applicants', { name: 'Bell Juror', email: JUROR_EMAIL, country: 'MY' });
  await apiWrite(admin, 'POST', `/applicants/${applicant.id}/approve`, { round: 1 });
  // The juror sets a password through the invitation's link (an admin reads it in the outbox).
  const outbox = await apiClient(admin).get('/outbox?template=invitation');
  const link = (outbox.body.data as Array<{ recipient: string; link: string | null }>).find((m) => m.recipient === JUROR_EMAIL)!.link!;
  juror = await (await newContext(browser)).newPage();
  await juror.goto(`${server.url}/login?lng=en`);
  const token = new URL(link).searchParams.get('token');
  const set = await juror.evaluate(
    async ({ token, password }) => {
      const xsrf = /(?:^|; )XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const headers = { 'content-type': 'application/json', 'x-xsrf-token': decodeURIComponent(xsrf) };
      return (await fetch('/api/auth/reset-password', { method: 'POST', headers, body: JSON.stringify({ token, password }) })).status;
    },
    { token, password: JUROR_PASSWORD },
  );
  expect(set).toBe(204);
  await signIn(juror, server.url, { email: JUROR_EMAIL, password: JUROR_PASSWORD, goto: false });
  await juror.waitForURL('**/jury');
}, 240_000);
afterAll(() => suite?.close());

describe("the header's bell for a juror", () => {
  it('shows the juror their own unread events and marks them read, one and then all', async () => {
    await withScreenshotOnFailure(juror, 'notifications-bell-juror', async () => {
      const bell = juror.getByRole('button', { name: 'Notifications (2 new)' });
      await bell.focus();
      await juror.keyboard.press('Enter');
      const popover = juror.getByRole('dialog', { name: 'Notifications' });
      const unread = popover.locator('li.notification-event[data-unread="true"]');
      await unread.getByText('Awards CMS: your application to the jury was approved').waitFor();
      await unread.getByText('You are invited to Awards CMS').waitFor();
      // A juror sees no contests part.
      expect(await popover.getByText('View new contests').count()).toBe(0);
      await popover.getByRole('button', { name: 'Mark as read: You are invited to Awards CMS' }).click();
      await juror.getByRole('button', { name: 'Notifications (1 new)' }).waitFor();
      await popover.locator('li.notification-event[data-unread="false"]').getByText('You are invited to Awards CMS').waitFor();
      await popover.getByRole('button', { name: 'Mark all as read' }).click();
      await juror.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
      expect(await popover.locator('li.notification-event[data-unread="true"]').count()).toBe(0);
      const answer = await apiClient(juror).get('/notifications');
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ events: expect.any(Array), unread: 0 });
      // The new contests (submittors, companies) are an admin's route: the juror's bell never asks it.
      expect((await apiClient(juror).get('/notifications/new-contests')).status).toBe(403);
    });
  });
});

describe("the header's bell for an admin", () => {
  it('asks the admin-only new-contests route and shows its part below the own events', async () => {
    await withScreenshotOnFailure(admin, 'notifications-bell-admin', async () => {
      const asked = admin.waitForResponse((res) => new URL(res.url()).pathname === '/api/notifications/new-contests');
      await admin.goto(`${server.url}/?lng=en`);
      expect((await asked).status()).toBe(200);
      await admin.getByRole('button', { name: /^Notifications/ }).click();
      const popover = admin.getByRole('dialog', { name: 'Notifications' });
      // No demo data here: no contest is new, and the part says so (neither a spinner nor an error).
      await popover.getByText('You have no new notifications.').waitFor();
      expect(await popover.getByRole('alert').count()).toBe(0);
    });
  });
});
