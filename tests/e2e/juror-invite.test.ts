import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite, switchLanguage, toast } from '../helpers/e2e-page.js';

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

const TOKEN = /set-password\?token=([A-Za-z0-9_-]+)/g;
const tokens = () => [...server.output().matchAll(TOKEN)].map((match) => match[1]!);

interface Texts {
  lng: 'en' | 'id';
  section: string;
  none: string;
  invite: string;
  sent: (email: string) => string;
  invited: string;
  setPasswordHeading: string;
}

const TEXTS: Texts[] = [
  {
    lng: 'en',
    section: 'Jury portal',
    none: 'No account',
    invite: 'Invite to the jury portal',
    sent: (email) => `Invitation sent to ${email}.`,
    invited: 'Invited',
    setPasswordHeading: 'Choose your password',
  },
  {
    lng: 'id',
    section: 'Portal juri',
    none: 'Belum ada akun',
    invite: 'Undang ke portal juri',
    sent: (email) => `Undangan dikirim ke ${email}.`,
    invited: 'Diundang',
    setPasswordHeading: 'Pilih kata sandi Anda',
  },
];

describe("juror invitation from the juror's page", () => {
  for (const texts of TEXTS) {
    it(`invites a juror, who sets a password, signs in and lands on the jury portal (${texts.lng})`, async () => {
      const email = `maya.${texts.lng}@jury.example`;
      const password = `kopi-hujan-senja-${texts.lng}-pelangi`;
      const jury = await apiWrite(admin, 'POST', '/juries', { name: `Maya Sari ${texts.lng.toUpperCase()}`, email, round: 1, is_active: true });
      const before = tokens().length;
      await withScreenshotOnFailure(admin, `juror-invite-${texts.lng}`, async () => {
        await admin.goto(`${server.url}/manage-jury/${jury.id}`);
        await switchLanguage(admin, texts.lng);
        const cell = admin.getByTestId('portal-account');
        await admin.getByText(texts.section, { exact: true }).first().waitFor();
        await cell.getByText(texts.none, { exact: true }).waitFor();
        await cell.getByRole('button', { name: texts.invite }).click();
        await toast(admin, texts.sent(email)).waitFor();
        await cell.getByText(texts.invited, { exact: true }).waitFor();
      });

      // No mail transport: the server logs the invitation, link included.
      await expect.poll(() => tokens().length, { timeout: 15_000 }).toBeGreaterThan(before);
      const token = tokens().at(-1)!;

      const page = await (await newContext(browser)).newPage();
      await withScreenshotOnFailure(page, `juror-set-password-${texts.lng}`, async () => {
        await page.goto(`${server.url}/set-password?token=${token}&lng=${texts.lng}`);
        await page.getByRole('heading', { name: texts.setPasswordHeading }).waitFor();
        await page.locator('input[name="password"]').fill(password);
        await page.locator('input[name="confirmPassword"]').fill(password);
        await page.locator('form button[type="submit"]').click();
        await page.waitForURL('**/login**');
        await signIn(page, server.url, { email, password, goto: false });
        await page.waitForURL('**/jury');
        expect(await page.locator('html').getAttribute('lang')).toBe(texts.lng);
      });
      await page.context().close();
    });
  }

  it('asks which juror when an account invited from Accounts matches no juror by e-mail', async () => {
    const jury = await apiWrite(admin, 'POST', '/juries', { name: 'Putu Wirawan', email: 'putu.office@jury.example', round: 1, is_active: true });
    await withScreenshotOnFailure(admin, 'juror-invite-accounts', async () => {
      await admin.goto(`${server.url}/manage-account`);
      await switchLanguage(admin, 'en');
      await admin.locator('#invite-name').fill('Putu Wirawan');
      await admin.locator('#invite-email').fill('putu.home@jury.example');
      await admin.getByRole('button', { name: 'Send invitation' }).click();
      await admin.getByText('No juror has the e-mail putu.home@jury.example: choose the juror this account stands for.').waitFor();
      await admin.getByRole('button', { name: /^Juror: / }).click();
      await admin.getByRole('option', { name: /Putu Wirawan/ }).click();
      await admin.getByRole('button', { name: 'Send invitation' }).click();
      await admin.getByTestId('account-putu.home@jury.example').getByText('Invited').waitFor();
    });
    const account = (await apiClient(admin).get('/accounts')).body.data.find((a: { email: string }) => a.email === 'putu.home@jury.example');
    expect(account.jury_id).toBe(jury.id);
  });

  it('invites the chosen jurors at once and names the ones skipped', async () => {
    const fresh = await apiWrite(admin, 'POST', '/juries', { name: 'Rahmat Hidayat', email: 'rahmat@jury.example', round: 1, is_active: true });
    await withScreenshotOnFailure(admin, 'juror-invite-bulk', async () => {
      // From the jurors list: the row action opens the invitations with that juror chosen.
      await admin.goto(`${server.url}/manage-jury?search=Rahmat`);
      await switchLanguage(admin, 'en');
      await admin.getByRole('link', { name: 'Invite Rahmat Hidayat to the jury portal' }).click();
      await admin.waitForURL(`**/jury-portal-invites?select=${fresh.id}`);
      await admin.getByRole('heading', { name: 'Jury portal invitations' }).waitFor();
      // Maya (en) is active since the first test: chosen too, she is skipped with the reason.
      await admin.getByRole('checkbox', { name: 'Choose Maya Sari EN' }).click();
      await admin.getByRole('button', { name: 'Invite the chosen (2)' }).click();
      await admin.getByRole('status').getByText('1 juror invited, 1 skipped.').waitFor();
      await admin.getByText('Maya Sari EN: Already has an active account').waitFor();
      await admin.getByTestId(`portal-record-${fresh.id}`).getByText('Invited', { exact: true }).waitFor();
    });
  });
});

describe('jury applicants on the decision screen', () => {
  it('names the expertise and the country, tells a rejected applicant, and an approved one gets a linked invited account', async () => {
    const category = await apiWrite(admin, 'POST', '/categories', {
      name: 'Film Craft Award',
      description: 'Craft in film and moving image.',
      status: 'active',
    });
    const rejected = await apiWrite(admin, 'POST', '/applicants', {
      name: 'Wulan Sari',
      email: 'wulan@apply.example',
      country: 'ID',
      expertise: [category.id],
    });
    await withScreenshotOnFailure(admin, 'applicant-decision', async () => {
      await admin.goto(`${server.url}/manage-applicant/${rejected.id}/decide`);
      await switchLanguage(admin, 'en');
      await admin.getByText('Film Craft Award', { exact: true }).waitFor();
      await admin.getByText('Indonesia', { exact: true }).first().waitFor();
      await admin.getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Reason for rejection' }).fill('Works for an entrant agency');
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await toast(admin, 'Application rejected; the applicant was told by e-mail.').waitFor();
    });
    // No mail transport: the mail to the applicant is in the log, with the reason.
    await expect.poll(() => server.output().includes('Reason: Works for an entrant agency'), { timeout: 15_000 }).toBe(true);

    const approved = await apiWrite(admin, 'POST', '/applicants', { name: 'Arif Rahman', email: 'arif@apply.example', country: 'MY' });
    await withScreenshotOnFailure(admin, 'applicant-approve', async () => {
      await admin.goto(`${server.url}/manage-applicant/${approved.id}/decide`);
      await admin.getByText('None given', { exact: true }).waitFor();
      await admin.getByRole('button', { name: 'Approve', exact: true }).click();
      await admin.getByRole('dialog').getByRole('button', { name: 'Yes', exact: true }).click();
      await admin.getByRole('link', { name: 'Open the juror' }).click();
      await admin.getByTestId('portal-account').getByText('Invited', { exact: true }).waitFor();
    });
  });
});
