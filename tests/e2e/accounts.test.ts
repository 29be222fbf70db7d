import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiWrite, switchLanguage } from '../helpers/e2e-page.js';

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  // LOG_LEVEL debug: without a mail transport the invitation's text (and its link) is in the debug log only.
  ({ server, browser } = suite = await startBrowserSuite({ LOG_LEVEL: 'debug' }));
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

describe('accounts: invitation and two-factor, in Indonesian', () => {
  it('invites an admin, who sets a password, turns two-factor on and signs in with a code', async () => {
    const email = 'dewi.admin@example.com';
    const password = 'kopi-hujan-senja-pelangi';
    await withScreenshotOnFailure(admin, 'invite-and-two-factor', async () => {
      await admin.goto(`${server.url}/manage-account`);
      await switchLanguage(admin, 'id');
      await admin.getByRole('heading', { name: 'Akun', exact: true }).waitFor();
      await admin.locator('#invite-name').fill('Dewi Lestari');
      await admin.locator('#invite-email').fill(email);
      await admin.getByRole('combobox', { name: 'Peran' }).click();
      await admin.getByRole('option', { name: 'Admin' }).click();
      await admin.getByRole('button', { name: 'Kirim undangan' }).click();
      await admin.getByTestId(`account-${email}`).getByText('Diundang').waitFor();
    });

    // No mail transport in tests: the server logs the message, link included.
    await expect.poll(() => /set-password\?token=([A-Za-z0-9_-]+)/.exec(server.output())?.[1], { timeout: 15_000 }).toBeTruthy();
    const token = /set-password\?token=([A-Za-z0-9_-]+)/.exec(server.output())![1]!;

    const page = await (await newContext(browser)).newPage();
    await withScreenshotOnFailure(page, 'set-password-and-enrol', async () => {
      await page.goto(`${server.url}/set-password?token=${token}&lng=id`);
      await page.getByRole('heading', { name: 'Pilih kata sandi Anda' }).waitFor();
      await page.locator('input[name="password"]').fill('password123');
      await page.locator('input[name="confirmPassword"]').fill('password123');
      await page.locator('form button[type="submit"]').click();
      await page.getByText('Kata sandi ini terlalu umum atau mudah ditebak', { exact: false }).waitFor();
      await page.locator('input[name="password"]').fill(password);
      await page.locator('input[name="confirmPassword"]').fill(password);
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL('**/login');
      await page.getByText('Kata sandi Anda sudah diatur. Silakan masuk sekarang.').waitFor();
      await signIn(page, server.url, { email, password, goto: false });
      await page.goto(`${server.url}/profile`);
      await page.getByRole('button', { name: 'Aktifkan verifikasi dua langkah' }).click();
      const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
      const totp = (offset: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offset * 30_000 });
      await page.locator('#two-factor-enrol-code').fill(totp(0));
      await page.getByRole('button', { name: 'Verifikasi' }).click();
      await page.getByTestId('recovery-codes').waitFor();
      expect(await page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
      await page.getByRole('button', { name: 'Saya sudah menyimpan kode pemulihan' }).click();

      const again = await (await newContext(browser)).newPage();
      await again.goto(`${server.url}/login?lng=id`);
      await again.locator('input[name="email"]').fill(email);
      await again.locator('input[name="password"]').fill(password);
      await again.locator('form button[type="submit"]').click();
      await again.getByRole('heading', { name: 'Verifikasi dua langkah' }).waitFor();
      // The enrolment used this step's code: the next step's (a phone clock a little ahead) signs in.
      await again.locator('#two-factor-code').fill(totp(1));
      await again.getByRole('button', { name: 'Verifikasi' }).click();
      await again.waitForURL('**/dashboard');
    });
    await admin.reload();
    await admin.getByTestId(`account-${email}`).getByText('Aktif').first().waitFor();
  });
});
