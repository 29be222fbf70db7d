import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite } from '../helpers/e2e-page.js';

type Language = 'en' | 'id' | 'ms';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const catalogues = Object.fromEntries(
  (['en', 'id', 'ms'] as const).map((lng) => [lng, JSON.parse(fs.readFileSync(path.join(root, 'locales', lng, 'common.json'), 'utf8'))]),
) as Record<Language, Record<string, unknown>>;

/** The text of `key` in `lng`, as the screens show it (`{{name}}` filled in). */
function tr(lng: Language, key: string, params: Record<string, string | number> = {}): string {
  const value = key.split('.').reduce<unknown>((node, step) => (node as Record<string, unknown> | undefined)?.[step], catalogues[lng]);
  if (typeof value !== 'string') throw new Error(`No text for ${key} in ${lng}`);
  return value.replace(/\{\{(\w+)(?:, \w+)?\}\}/g, (_, name: string) => String(params[name]));
}

const CRITERIA = [
  { key: 'idea', label: 'Idea', weight: 3, maximum: 10 },
  { key: 'craft', label: 'Craft', weight: 1, maximum: 5 },
];

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  // LOG_LEVEL debug: without a mail transport the invitation's text (and its link) is in the debug log only.
  ({ server, browser } = suite = await startBrowserSuite({ DEMO_DATA: 'true', LOG_LEVEL: 'debug' }));
  admin = await (await newContext(browser)).newPage();
  await signIn(admin, server.url);
}, 240_000);
afterAll(() => suite?.close());

/** The set-password token of the invitation mailed to `email` (the server logs mail when it has no transport). */
function invitationToken(email: string): string | undefined {
  for (const line of server.output().split('\n').reverse()) {
    if (!line.includes(`"to":"${email}"`)) continue;
    const token = /set-password\?token=([A-Za-z0-9_-]+)/.exec(line)?.[1];
    if (token) return token;
  }
  return undefined;
}

/** Presses the header's language switcher (en → id → ms) until the page is in `lng`, waiting for each change (its texts load on demand). */
async function switchLanguage(page: Page, lng: Language): Promise<void> {
  const lang = () => page.locator('html').getAttribute('lang');
  const switcher = page.getByTestId('language-switcher').filter({ visible: true }).first();
  await switcher.waitFor();
  for (let i = 0; i < 3 && (await lang()) !== lng; i += 1) {
    const before = await lang();
    await switcher.click();
    await expect.poll(lang, { timeout: 15_000 }).not.toBe(before);
  }
  expect(await lang()).toBe(lng);
}

const yes = (page: Page, lng: Language) =>
  page
    .getByRole('dialog')
    .getByRole('button', { name: tr(lng, 'common.yes'), exact: true })
    .click();

/** The figures of one row of a table: its header cell's text, then each cell's. */
const rowOf = (page: Page, table: string, header: string, text?: string) =>
  page
    .getByRole('table', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: header, exact: true }) })
    .filter(text ? { hasText: text } : {})
    .evaluate((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim()));

/**
 * The jury workflow end to end, once in each language: an admin approves a jury applicant (who gets an
 * invitation, sets a password and signs in to the jury portal), opens a new Round 1 exam from its
 * detail's judging screen and auto-assigns three jurors per entry (the new juror gets at least
 * three entries, ticked in the matrix when the plan gave fewer); the juror scores two entries blind
 * and recuses from a third; the admin sees the progress per juror and per category move, and
 * views the juror's portal read-only.
 */
describe('jury applicants: rejecting', { timeout: 120_000 }, () => {
  it('rejects an application only with a reason, and shows the reason', async () => {
    await withScreenshotOnFailure(admin, 'applicant-reject', async () => {
      const applicant = await apiWrite(admin, 'POST', '/applicants', { name: 'Rejected Applicant', email: 'rejected.applicant@example.com', country: 'ID' });
      await admin.goto(`${server.url}/manage-applicant/${applicant.id}/decide`);
      await switchLanguage(admin, 'en');
      await admin.getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await admin.locator('.Toastify').getByText(tr('en', 'judging.errors.reason_length')).waitFor();
      await dialog.getByRole('textbox', { name: 'Reason for rejection' }).fill('Works for an entrant agency');
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await admin.getByText('Rejected: Works for an entrant agency').waitFor();
      expect(await admin.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
      const stored = (await apiClient(admin).get(`/applicants/${applicant.id}`)).body.data;
      expect(stored).toMatchObject({ status: 'rejected', rejection_reason: 'Works for an entrant agency', jury_id: null });
    });
  });
});

describe('judging walkthrough in three languages', { timeout: 240_000 }, () => {
  const languages: Language[] = ['en', 'id', 'ms'];
  languages.forEach((lng, index) => {
    it(`approves a juror, opens an exam, assigns, scores and shows progress in ${lng}`, async () => {
      const name = `Walkthrough Juror ${lng.toUpperCase()}`;
      const email = `walkthrough-${lng}@example.com`;
      const password = `walkthrough-${lng}-passphrase-42`;
      const categoryId = index + 1;

      await withScreenshotOnFailure(admin, `walkthrough-${lng}-approve`, async () => {
        const applicant = await apiWrite(admin, 'POST', '/applicants', { name, email, company: `Walkthrough ${lng} Studio`, country: 'MY' });
        await admin.goto(`${server.url}/manage-applicant/${applicant.id}`);
        await switchLanguage(admin, lng);
        await admin.getByRole('link', { name: tr(lng, 'judging.applicant.decide') }).click();
        await admin.waitForURL(`**/manage-applicant/${applicant.id}/decide`);
        await admin.getByRole('heading', { name: tr(lng, 'judging.applicant.heading', { name }) }).waitFor();
        await admin.getByRole('button', { name: tr(lng, 'judging.actions.approve'), exact: true }).click();
        await admin
          .getByRole('dialog')
          .getByText(tr(lng, 'judging.actions.approve_confirm', { round: 1 }))
          .waitFor();
        await yes(admin, lng);
        await admin.getByText(tr(lng, 'judging.applicant.approved_state')).waitFor();
      });

      await expect.poll(() => invitationToken(email), { timeout: 15_000 }).toBeTruthy();
      const juror = await (await newContext(browser)).newPage();
      await withScreenshotOnFailure(juror, `walkthrough-${lng}-invitation`, async () => {
        await juror.goto(`${server.url}/set-password?token=${invitationToken(email)}&lng=${lng}`);
        await juror.getByRole('heading', { name: tr(lng, 'pages.setPassword.heading') }).waitFor();
        await juror.locator('input[name="password"]').fill(password);
        await juror.locator('input[name="confirmPassword"]').fill(password);
        await juror.locator('form button[type="submit"]').click();
        await juror.waitForURL('**/login**');
        await signIn(juror, server.url, { email, password, goto: false });
        await juror.waitForURL('**/jury');
      });

      const exam = await apiWrite(admin, 'POST', '/exams', {
        name: `Walkthrough ${lng}`,
        category_id: categoryId,
        round: 1,
        // The demo data already judge this category's Round 1: each language's exam is a parallel panel.
        parallel_panel: true,
        max_score: 100,
        criteria: CRITERIA,
      });
      type Matrix = {
        entries: Array<{ id: number }>;
        jurors: Array<{ id: number; name: string }>;
        assignments: Array<{ contest_id: number; jury_id: number }>;
      };
      const readMatrix = async () => (await apiClient(admin).get(`/exams/${exam.id}/matrix`)).body.data as Matrix;
      const jurorId = (await readMatrix()).jurors.find((j) => j.name === name)!.id;
      const mine = (m: Matrix) => m.assignments.filter((a) => a.jury_id === jurorId).map((a) => a.contest_id);

      await withScreenshotOnFailure(admin, `walkthrough-${lng}-assign`, async () => {
        await admin.goto(`${server.url}/manage-exam/${exam.id}`);
        await admin
          .getByRole('main')
          .getByRole('link', { name: tr(lng, 'judging.actions.judging'), exact: true })
          .click();
        await admin.waitForURL(`**/exam-judging/${exam.id}`);
        await admin.getByRole('heading', { name: tr(lng, 'judging.screen.title', { name: `Walkthrough ${lng}` }) }).waitFor();
        await admin.getByRole('button', { name: tr(lng, 'judging.actions.open'), exact: true }).click();
        await yes(admin, lng);
        await admin.getByText(tr(lng, 'judging.actions.status_changed')).waitFor();
        // Auto-assign three jurors per entry: preview, then save.
        await admin.getByRole('spinbutton', { name: tr(lng, 'judging.screen.per_entry') }).fill('3');
        await admin.getByRole('button', { name: tr(lng, 'judging.screen.preview'), exact: true }).click();
        await admin.getByRole('button', { name: tr(lng, 'judging.screen.save_plan'), exact: true }).click();
        await admin.getByText(tr(lng, 'judging.screen.saved')).waitFor();
        const planned = await readMatrix();
        expect(planned.entries.length).toBeGreaterThanOrEqual(3);
        expect(planned.assignments.length).toBeGreaterThan(0);
        // The new juror gets at least three entries: any the plan did not give are ticked in the matrix.
        const missing = planned.entries
          .map((e) => e.id)
          .filter((id) => !mine(planned).includes(id))
          .slice(0, Math.max(0, 3 - mine(planned).length));
        for (const entry of missing) {
          await admin.getByRole('checkbox', { name: tr(lng, 'judging.screen.assign', { juror: name, entry }), exact: true }).click();
          await admin.getByRole('checkbox', { name: tr(lng, 'judging.screen.unassign', { juror: name, entry }), exact: true }).waitFor();
        }
      });
      const assigned = mine(await readMatrix()).length;
      expect(assigned).toBeGreaterThanOrEqual(3);

      const categoryRow = async () => {
        const all = (await apiClient(admin).get('/judging/progress')).body.data.categories as Array<{
          category_id: number;
          name: string;
          round: number;
          submitted: number;
          total: number;
          recused: number;
        }>;
        return all.find((c) => c.category_id === categoryId && c.round === 1)!;
      };
      const before = await categoryRow();

      await withScreenshotOnFailure(juror, `walkthrough-${lng}-score`, async () => {
        await juror.goto(`${server.url}/jury`);
        await switchLanguage(juror, lng);
        await juror.getByRole('heading', { name: tr(lng, 'pages.titles.jury'), exact: true }).waitFor();
        await juror.getByRole('button', { name: new RegExp(`Walkthrough ${lng}`) }).click();
        const entryButtons = juror.getByRole('navigation', { name: tr(lng, 'judging.portal.entries') }).getByRole('button');
        await expect.poll(() => entryButtons.count()).toBe(assigned);
        // Two entries scored and submitted, blind.
        for (const [n, [idea, craft, total]] of [
          [0, [8, 4, 80]],
          [1, [6, 5, 70]],
        ] as const) {
          await entryButtons.nth(n).click();
          await juror.getByRole('heading', { name: tr(lng, 'judging.portal.sheet') }).waitFor();
          await juror.locator('input[name="score-idea"]:not([disabled])').fill(String(idea));
          await juror.locator('input[name="score-craft"]:not([disabled])').fill(String(craft));
          await juror.getByText(tr(lng, 'judging.portal.total', { total, max: 100 })).waitFor();
          await juror.getByRole('button', { name: tr(lng, 'judging.portal.submit'), exact: true }).click();
          await yes(juror, lng);
          await entryButtons.nth(n).getByText(tr(lng, 'judging.portal.statuses.submitted')).waitFor();
        }
        // biome-ignore lint/performance/useDomNodeTextContent: what the juror sees; textContent would also read hidden nodes
        const main = await juror.locator('main').innerText();
        expect(main).not.toMatch(/Sdn Bhd|PT [A-Z]|@|\+60|\+62/);
        // A recusal from the third, with a reason.
        await entryButtons.nth(2).click();
        await juror.getByRole('button', { name: tr(lng, 'judging.portal.recuse'), exact: true }).click();
        await juror.getByRole('dialog').getByLabel(tr(lng, 'judging.portal.recuse_reason')).fill(`Conflict declared (${lng})`);
        await yes(juror, lng);
        await entryButtons.nth(2).getByText(tr(lng, 'judging.portal.statuses.recused')).waitFor();
      });

      await withScreenshotOnFailure(admin, `walkthrough-${lng}-progress`, async () => {
        await admin.reload();
        await switchLanguage(admin, lng);
        const statuses = (['assigned', 'in_progress', 'submitted', 'recused'] as const).map((s) => tr(lng, `entities.assignment.statuses.${s}`));
        await expect
          .poll(() =>
            admin
              .getByRole('table', { name: tr(lng, 'judging.screen.progress') })
              .getByRole('columnheader')
              .allInnerTexts(),
          )
          .toEqual([tr(lng, 'judging.screen.per_juror'), ...statuses]);
        // Per juror: the rest still assigned, two submitted, one recused.
        await expect.poll(() => rowOf(admin, tr(lng, 'judging.screen.progress'), name)).toEqual([name, String(assigned - 3), '0', '2', '1']);
        // Per category and round: two more graded than before the juror submitted.
        const after = await categoryRow();
        expect(after.submitted).toBe(before.submitted + 2);
        expect(await rowOf(admin, tr(lng, 'judging.screen.per_category'), after.name, tr(lng, 'entities.jury.rounds.1'))).toEqual([
          after.name,
          tr(lng, 'entities.jury.rounds.1'),
          `${after.submitted} / ${after.total - after.recused}`,
        ]);
        // The admin views the juror's portal read-only from the progress table.
        await admin
          .getByRole('table', { name: tr(lng, 'judging.screen.progress') })
          .getByRole('link', { name, exact: true })
          .click();
        await admin.waitForURL(`**/jury?jury_id=${jurorId}`);
        await admin.getByText(tr(lng, 'judging.portal.view_as', { name })).waitFor();
      });
      await juror.context().close();
    });
  });
});
