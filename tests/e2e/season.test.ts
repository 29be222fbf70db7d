import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneOffsetMinutes } from '../../src/engine/widgets/zoned-time.js';
import type { ExamResultsData } from '../../src/features/results/shared/results-contract.js';
import { type BrowserSuite, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, toast } from '../helpers/e2e-page.js';

/**
 * A whole season through the screens, on the demo data, in a real browser: the admin creates a new
 * edition and switches to it in the header, creates three jurors and invites them from Accounts
 * (each sets a password from the invitation in the log and signs in; one works in Bahasa
 * Indonesia), creates a Round 1 exam in its form (dates in the admin's zone, criteria in the
 * criteria editor), sets its panel, declares a conflict on a juror's page and auto-assigns (preview,
 * then save); the jurors score blind (codes, never an entry's id or entrant); the admin, in Malay,
 * reopens one grade on the moderation screen with a reason; the juror scores again; the admin closes
 * the round, reads the results ranked by normalised score, shortlists, sets up Round 2 on exactly
 * the shortlist, the jurors score it, and the admin closes it, overrides one award with a reason,
 * finalises and exports the CSV.
 *
 * Nothing is written through the API: the test only reads it to check what the screens did.
 *
 * The screens, in order: editions list and form, the header's edition switcher, the exam list; the
 * juror form (three times); Accounts; set password and sign in (three jurors); the exam form; the
 * exam list and detail; the judging screen (matrix, panel editor); the jurors list and a juror's
 * page (declared conflict); the judging screen (auto-assign); the jury portal (three jurors); the
 * results and moderation screens (in Malay); the jury portal (the reopened grade, in Indonesian);
 * the judging screen (close); the results (basis, shortlist); the judging exam picker and Round 2's
 * judging screen (matrix, panel, auto-assign); the jury portal; the judging screen (close); the
 * results (award override, finalise, CSV export).
 *
 * Entries are reviewed on their pages (approve; reject with a reason). The season runs in the demo's
 * current edition (Awards 2026): entries come into a new edition through the entrant portal (another
 * issue), so the new edition stays empty. Its category is Best Integrated Campaign,
 * whose Round 2 exam has no entries yet; the Round 1 exam is a parallel panel beside the demo's.
 */

type Language = 'en' | 'id' | 'ms';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const catalogues = Object.fromEntries(
  (['en', 'id', 'ms'] as const).map((lng) => [lng, JSON.parse(fs.readFileSync(path.join(root, 'locales', lng, 'common.json'), 'utf8'))]),
) as Record<Language, Record<string, unknown>>;

/** The text of `key` in `lng`, as the screens show it (`{{name}}` filled in, `_one` / `_other` by `count`). */
function tr(lng: Language, key: string, params: Record<string, string | number> = {}): string {
  const find = (k: string) => k.split('.').reduce<unknown>((node, step) => (node as Record<string, unknown> | undefined)?.[step], catalogues[lng]);
  // As i18next: with a count, the plural form's key first.
  const plural = typeof params.count === 'number' ? (find(`${key}_${new Intl.PluralRules(lng).select(params.count)}`) ?? find(`${key}_other`)) : undefined;
  const value = plural ?? find(key);
  if (typeof value !== 'string') throw new Error(`No text for ${key} in ${lng}`);
  return value.replace(/\{\{(\w+)(?:, \w+)?\}\}/g, (_, name: string) => String(params[name]));
}

const ZONE = 'Asia/Kuala_Lumpur';
const HOUR = 3_600_000;
const CATEGORY = 'Best Integrated Campaign';
const ROUND1 = 'Best Integrated Campaign — Season Round 1';
const ROUND2 = 'Best Integrated Campaign — Round 2';

interface Juror {
  key: 'ayu' | 'budi' | 'citra';
  name: string;
  email: string;
  password: string;
  lng: Language;
  id?: number;
  page?: Page;
}

const JURORS: Juror[] = [
  { key: 'ayu', name: 'Season Juror Ayu', email: 'ayu.season@jury.example', password: 'ayu-season-passphrase-42', lng: 'en' },
  { key: 'budi', name: 'Season Juror Budi', email: 'budi.season@jury.example', password: 'budi-season-passphrase-42', lng: 'en' },
  { key: 'citra', name: 'Season Juror Citra', email: 'citra.season@jury.example', password: 'citra-season-passphrase-42', lng: 'id' },
];
const [AYU, BUDI, CITRA] = JURORS as [Juror, Juror, Juror];

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  // LOG_LEVEL debug: without a mail transport the invitations' texts (and their links) are in the debug log only.
  ({ server, browser } = suite = await startBrowserSuite({ DEMO_DATA: 'true', LOG_LEVEL: 'debug', EXAM_SCHEDULER_SECONDS: '1' }));
  admin = await newPage();
  await signIn(admin, server.url);
}, 240_000);
afterAll(() => suite?.close());

/** A page in its own context, in the admin's zone, at a desktop width. */
async function newPage(): Promise<Page> {
  return (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: ZONE })).newPage();
}

/** `ms` as a `datetime-local` value in the admin's wall time. */
function zonedInput(ms: number): string {
  return new Date(ms + zoneOffsetMinutes(ZONE, ms) * 60_000).toISOString().slice(0, 16);
}

/** The set-password token of the invitation mailed to `email` (the server logs mail when it has no transport). */
function invitationToken(email: string): string | undefined {
  for (const line of server.output().split('\n').reverse()) {
    if (!line.includes(email)) continue;
    const token = /set-password\?token=([A-Za-z0-9_-]+)/.exec(line)?.[1];
    if (token) return token;
  }
  return undefined;
}

/** Presses the header's language switcher (en → id → ms) until the page is in `lng`, waiting for each change. */
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

/** Picks an edition in the header's switcher (again when a click lands while the list is still opening). */
async function chooseEdition(page: Page, name: string): Promise<void> {
  const switcher = page.getByRole('combobox', { name: tr('en', 'entities.edition.switcher.label') });
  for (let attempt = 0; attempt < 3 && (await switcher.textContent()) !== name; attempt += 1) {
    await switcher.click();
    await page.getByRole('option', { name, exact: true }).click();
    await page
      .getByRole('listbox')
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => page.keyboard.press('Escape'));
  }
  await expect.poll(() => switcher.textContent()).toBe(name);
}

/** The rows of a table (by its accessible name): each cell's text. */
const cellsOf = (page: Page, table: string) =>
  page
    .getByRole('table', { name: table, exact: true })
    .evaluate((el) => [...el.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));

/** The judging screen's matrix as the admin sees it: each entry's id, blind code and entrant (company · brand). */
async function matrixEntries(page: Page): Promise<Array<{ id: number; code: string; entrant: string }>> {
  const heading = page.getByRole('heading', { name: tr('en', 'judging.screen.matrix'), exact: true });
  await heading.waitFor();
  const card = page.locator('.rt-Card').filter({ has: heading });
  await card.locator('tbody tr').first().waitFor();
  return card.locator('tbody tr th').evaluateAll((cells) =>
    cells.map((cell) => {
      const texts = [...cell.querySelectorAll('span, code')].map((n) => (n.textContent ?? '').trim());
      const id = Number(/#(\d+)/.exec(cell.textContent ?? '')?.[1]);
      const code = cell.querySelector('code')?.textContent?.trim() ?? '';
      return { id, code, entrant: texts.at(-1) ?? '' };
    }),
  );
}

interface Exam {
  id: number;
  entries: Array<{ id: number; code: string; entrant: string }>;
}
const round1: Exam = { id: 0, entries: [] };
const round2: Exam = { id: 0, entries: [] };
const results = async (examId: number) => (await apiClient(admin).get(`/exams/${examId}/results`)).body.data as ExamResultsData;

/** The judging screen of `examId` (from the exam's detail page). */
async function openJudging(page: Page, examId: number, lng: Language = 'en'): Promise<void> {
  await page.goto(`${server.url}/manage-exam/${examId}`);
  await page
    .getByRole('main')
    .getByRole('link', { name: tr(lng, 'judging.actions.judging'), exact: true })
    .click();
  await page.waitForURL(`**/exam-judging/${examId}`);
}

/** Sets the panel of the open judging screen to exactly the season's jurors, and saves it. */
async function setPanel(page: Page): Promise<void> {
  const panel = page.getByRole('table', { name: tr('en', 'judging.panel.title'), exact: true });
  await panel.locator('tbody tr').first().waitFor();
  const names = await panel.locator('tbody tr th').evaluateAll((cells) => cells.map((c) => c.querySelector('span')?.textContent?.trim() ?? ''));
  for (const name of names) {
    const box = page.getByRole('checkbox', { name: tr('en', 'judging.panel.toggle', { juror: name }), exact: true });
    const wanted = JURORS.some((j) => j.name === name);
    if ((await box.getAttribute('aria-checked')) !== String(wanted)) await box.click();
    await expect.poll(() => box.getAttribute('aria-checked')).toBe(String(wanted));
  }
  await page.getByRole('button', { name: tr('en', 'judging.panel.save'), exact: true }).click();
  await toast(page, tr('en', 'judging.panel.saved')).waitFor();
  await page.getByText(tr('en', 'judging.panel.count', { count: 3 }), { exact: true }).waitFor();
}

/** Auto-assigns `perEntry` jurors per entry on the open judging screen: preview, then save. */
async function autoAssign(page: Page, perEntry: number): Promise<void> {
  await page.getByRole('spinbutton', { name: tr('en', 'judging.screen.per_entry') }).fill(String(perEntry));
  await page.getByRole('button', { name: tr('en', 'judging.screen.preview'), exact: true }).click();
  await page.getByTestId('plan-preview').waitFor();
}

/** Moves the exam on the open judging screen with the status button `action` (confirmed). */
async function moveExam(page: Page, action: 'open' | 'close', status: 'open' | 'closed'): Promise<void> {
  await page.getByRole('button', { name: tr('en', `judging.actions.${action}`), exact: true }).click();
  await yes(page, 'en');
  await page.getByText(tr('en', 'judging.actions.status_changed')).waitFor();
  await page
    .getByRole('main')
    .getByText(tr('en', `entities.exam.statuses.${status}`), { exact: true })
    .first()
    .waitFor();
}

/** A juror's portal on the exam `name`: its entry buttons (each labelled by blind code and status). */
async function portalEntries(juror: Juror, examName: string) {
  const page = juror.page!;
  await page.goto(`${server.url}/jury`);
  await page.getByRole('heading', { name: tr(juror.lng, 'pages.titles.jury'), exact: true }).waitFor();
  await page.getByRole('button', { name: new RegExp(examName) }).click();
  return page.getByRole('navigation', { name: tr(juror.lng, 'judging.portal.entries') }).getByRole('button');
}

/**
 * The juror scores the entry `code` and submits it: `scores` by criterion key, or a function giving each
 * criterion on the sheet its score from the criterion's maximum (read from the input's label).
 */
async function score(juror: Juror, code: string, scores: Record<string, number> | ((maximum: number) => number), remarks?: string): Promise<void> {
  const page = juror.page!;
  const lng = juror.lng;
  const button = page.getByRole('navigation', { name: tr(lng, 'judging.portal.entries') }).getByRole('button', { name: new RegExp(`^${code}\\b`) });
  await button.click();
  await expect.poll(() => button.getAttribute('aria-current')).toBe('true');
  await page.getByRole('heading', { name: tr(lng, 'judging.portal.sheet') }).waitFor();
  const inputs = page.locator('input[name^="score-"]:not([disabled])');
  await inputs.first().waitFor();
  if (typeof scores === 'function') {
    // The input's label ends with '(out of 10)' in the juror's language.
    const outOf = new RegExp(`\\(${tr(juror.lng, 'judging.portal.out_of', { max: '(\\d+)' })}\\)$`);
    for (const input of await inputs.all()) {
      const maximum = Number(outOf.exec((await input.getAttribute('aria-label')) ?? '')?.[1]);
      expect(maximum).toBeGreaterThan(0);
      await input.fill(String(scores(maximum)));
    }
  } else {
    for (const [key, value] of Object.entries(scores)) await page.locator(`input[name="score-${key}"]:not([disabled])`).fill(String(value));
  }
  if (remarks) await page.locator('textarea[name="remarks"]').fill(remarks);
  await page.getByRole('button', { name: tr(lng, 'judging.portal.submit'), exact: true }).click();
  await yes(page, lng);
  await button.getByText(tr(lng, 'judging.portal.statuses.submitted'), { exact: true }).waitFor();
}

/** What a juror sees in the portal never names an entry's id or its entrant. */
async function expectBlind(juror: Juror, entries: Exam['entries'], prefix: 'R1' | 'R2'): Promise<void> {
  const page = juror.page!;
  const labels = await page
    .getByRole('navigation', { name: tr(juror.lng, 'judging.portal.entries') })
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => b.firstElementChild?.textContent ?? ''));
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label).toMatch(new RegExp(`^${prefix}-[A-Z0-9]{4,}$`));
  // biome-ignore lint/performance/useDomNodeTextContent: what the juror sees; textContent would also read hidden nodes
  const main = await page.locator('main').innerText();
  for (const entry of entries) {
    expect(main).not.toMatch(new RegExp(`#${entry.id}\\b`));
    for (const name of entry.entrant.split(' · ').filter(Boolean)) expect(main).not.toContain(name);
  }
}

// Scores by criterion (Idea out of 10, weight 3; Craft out of 5, weight 1): the total is 7.5 × idea + 5 × craft.
// Ayu is lenient, Budi harsh; Citra declares a conflict with the first entry, and her first score of the
// third is far below the others' (moderation), then corrected after the reopen.
const R1_SCORES: Record<Juror['key'], Array<{ idea: number; craft: number } | null>> = {
  ayu: [
    { idea: 9, craft: 5 },
    { idea: 8, craft: 4 },
    { idea: 10, craft: 5 },
  ],
  budi: [
    { idea: 7, craft: 3 },
    { idea: 5, craft: 3 },
    { idea: 8, craft: 4 },
  ],
  citra: [null, { idea: 6, craft: 2 }, { idea: 3, craft: 1 }],
};
const REOPEN_REASON = 'Far below the panel: please check the guidance for Idea';

/** The season's steps depend on each other: once one fails, the later ones are skipped, not timed out one by one. */
let broken = false;
function step(name: string, body: () => Promise<void>): void {
  it(name, async (context) => {
    if (broken) context.skip();
    try {
      await body();
    } catch (error) {
      broken = true;
      throw error;
    }
  });
}

describe('a whole season through the screens', { timeout: 240_000 }, () => {
  step('creates a new edition on the editions screen and switches to it in the header; the lists follow', async () => {
    await withScreenshotOnFailure(admin, 'season-edition', async () => {
      await admin.goto(`${server.url}/manage-edition`);
      await switchLanguage(admin, 'en');
      await admin.getByRole('link', { name: /^Create/ }).click();
      await admin.waitForURL('**/create-edition');
      await admin.locator('#edition-create_name').fill('Awards 2027');
      await admin.locator('#edition-create_year').fill('2027');
      await admin.getByRole('radio', { name: tr('en', 'entities.edition.enum.status.draft'), exact: true }).click();
      await admin.getByRole('button', { name: /^Create Edition$/ }).click();
      await admin.waitForURL(/\/manage-edition(\/\d+)?$/);
      const created = admin.getByRole('row').filter({ has: admin.getByRole('link', { name: 'Awards 2027', exact: true }) });
      // The year as written, not a quantity ('2,027').
      await created.getByRole('cell', { name: '2027', exact: true }).waitFor();

      await chooseEdition(admin, 'Awards 2027');
      await admin.goto(`${server.url}/manage-exam`);
      // Nothing of Awards 2026 in the new edition.
      await admin.getByText(tr('en', 'entities.exam.empty')).waitFor();
      await chooseEdition(admin, 'Awards 2026');
      await expect.poll(() => admin.locator('table tbody tr').count()).toBeGreaterThan(0);
      const editions = (await apiClient(admin).get('/me/edition')).body.data as {
        current: { name: string };
        editions: Array<{ name: string; status: string }>;
      };
      expect(editions.current.name).toBe('Awards 2026');
      expect(editions.editions.find((e) => e.name === 'Awards 2027')).toMatchObject({ status: 'draft' });
    });
  });

  step('reviews entries on their pages: approves a submitted entry (it joins its Round 1 at once) and rejects one with a reason, in Malay', async () => {
    // Entries of another category than the season's, so the season's own Round 1 keeps its three.
    const contests = (await apiClient(admin).get('/contests?status=submitted&per_page=50&include=category')).body.data as Array<{
      id: number;
      category_id: number;
      category?: { name: string };
    }>;
    const others = contests.filter((c) => c.category?.name !== CATEGORY);
    expect(others.length).toBeGreaterThanOrEqual(2);
    const [approve, reject] = others as [(typeof others)[number], (typeof others)[number]];
    await withScreenshotOnFailure(admin, 'season-review', async () => {
      await admin.goto(`${server.url}/manage-contest/${approve.id}`);
      await switchLanguage(admin, 'ms');
      const section = admin.getByTestId('contest-review');
      await section.getByRole('button', { name: tr('ms', 'judging.review.approve'), exact: true }).click();
      await toast(admin, tr('ms', 'judging.review.approved')).waitFor();
      await admin.getByTestId('contest-review-status').getByText(tr('ms', 'entities.contest.enum.status.approved'), { exact: true }).waitFor();

      await admin.goto(`${server.url}/manage-contest/${reject.id}`);
      await admin
        .getByTestId('contest-review')
        .getByRole('button', { name: tr('ms', 'judging.review.reject'), exact: true })
        .click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByRole('heading', { name: tr('ms', 'judging.review.reject_title', { id: reject.id }) }).waitFor();
      await dialog.getByRole('textbox').fill('The entry names no measurable result.');
      await dialog.getByRole('button', { name: tr('ms', 'judging.review.reject_confirm'), exact: true }).click();
      await toast(admin, tr('ms', 'judging.review.rejected')).waitFor();
      await admin.getByTestId('contest-review-status').getByText(tr('ms', 'entities.contest.enum.status.rejected'), { exact: true }).waitFor();
      await switchLanguage(admin, 'en');
    });
    // The approved entry is eligible for its category's Round 1 at once; the rejected one is not.
    const exams = (await apiClient(admin).get(`/exams?round=1&q[category_id]=${approve.category_id}`)).body.data as Array<{ id: number }>;
    const eligible = (await apiClient(admin).get(`/exams/${exams[0]!.id}/entries`)).body.data as Array<{ contest_id?: number; id?: number }>;
    expect(eligible.map((e) => e.contest_id ?? e.id)).toContain(approve.id);
    expect((await apiClient(admin).get(`/contests/${reject.id}`)).body.data.status).toBe('rejected');
  });

  step('creates three jurors and invites them from Accounts; each sets a password and signs in (one in Bahasa Indonesia)', async () => {
    for (const juror of JURORS) {
      await withScreenshotOnFailure(admin, `season-juror-${juror.key}`, async () => {
        await admin.goto(`${server.url}/create-jury`);
        await admin.locator('#jury-create_name').fill(juror.name);
        await admin.locator('#jury-create_email').fill(juror.email);
        await admin.getByRole('button', { name: 'Create Juror', exact: true }).click();
        await admin.waitForURL(/\/manage-jury(\/\d+)?$/);
      });
    }
    await withScreenshotOnFailure(admin, 'season-invite', async () => {
      await admin.goto(`${server.url}/manage-account`);
      for (const juror of JURORS) {
        await admin.locator('#invite-name').fill(juror.name);
        await admin.locator('#invite-email').fill(juror.email);
        // The role is juror by default; the juror record is the one with the same e-mail.
        expect(await admin.getByRole('combobox', { name: tr('en', 'pages.accounts.role') }).textContent()).toBe(tr('en', 'pages.accounts.roles.juror'));
        await admin.getByRole('button', { name: tr('en', 'pages.accounts.invite'), exact: true }).click();
        await toast(admin, tr('en', 'pages.accounts.invited', { email: juror.email })).waitFor();
        await admin.getByTestId(`account-${juror.email}`).getByText(tr('en', 'pages.accounts.statuses.invited'), { exact: true }).waitFor();
      }
    });
    const accounts = (await apiClient(admin).get('/accounts')).body.data as Array<{ email: string; jury_id: number | null; role: string }>;
    const juries = (await apiClient(admin).get('/juries?search=Season%20Juror&per_page=10')).body.data as Array<{ id: number; email: string }>;
    for (const juror of JURORS) {
      juror.id = juries.find((j) => j.email === juror.email)!.id;
      expect(accounts.find((a) => a.email === juror.email)).toMatchObject({ role: 'juror', jury_id: juror.id });
    }

    for (const juror of JURORS) {
      await expect.poll(() => invitationToken(juror.email), { timeout: 15_000 }).toBeTruthy();
      juror.page = await newPage();
      const page = juror.page;
      await withScreenshotOnFailure(page, `season-set-password-${juror.key}`, async () => {
        await page.goto(`${server.url}/set-password?token=${invitationToken(juror.email)}&lng=${juror.lng}`);
        await page.getByRole('heading', { name: tr(juror.lng, 'pages.setPassword.heading') }).waitFor();
        await page.locator('input[name="password"]').fill(juror.password);
        await page.locator('input[name="confirmPassword"]').fill(juror.password);
        await page.locator('form button[type="submit"]').click();
        await page.waitForURL('**/login**');
        await signIn(page, server.url, { email: juror.email, password: juror.password, goto: false });
        await page.waitForURL('**/jury');
        expect(await page.locator('html').getAttribute('lang')).toBe(juror.lng);
        await page.getByText(tr(juror.lng, 'judging.portal.empty')).waitFor();
      });
    }
  });

  step('creates Round 1 in the exam form: dates in the admin’s zone, criteria in the criteria editor; it opens by itself', async () => {
    await withScreenshotOnFailure(admin, 'season-round1-form', async () => {
      await admin.goto(`${server.url}/create-exam`);
      await admin.locator('#exam-create_name').fill(ROUND1);
      await admin.locator('#exam-create_category_id').click();
      await admin
        .getByRole('option', { name: new RegExp(CATEGORY) })
        .first()
        .click();
      await admin.getByRole('radio', { name: tr('en', 'entities.jury.rounds.1'), exact: true }).click();
      // The demo data already judge this category's Round 1: this exam is a parallel panel.
      await admin.locator('#exam-create_parallel_panel').click();
      const opens = Date.now() - 2 * 60_000;
      const closes = Date.now() + 5 * 24 * HOUR;
      await admin.locator('#exam-create_opens_at').fill(zonedInput(opens));
      await admin.locator('#exam-create_closes_at').fill(zonedInput(closes));
      expect(await admin.getByText('Asia/Kuala_Lumpur, UTC+8').count()).toBe(2);

      await admin.getByRole('button', { name: 'Add criterion', exact: true }).click();
      const first = admin.getByRole('group', { name: /^1\. / });
      await first.getByLabel('Label', { exact: true }).fill('Idea');
      await first.getByLabel('Weight', { exact: true }).fill('3');
      await first.getByLabel('Maximum score', { exact: true }).fill('10');
      await first.getByLabel('Guidance for jurors', { exact: true }).fill('Is the idea new to the category?');
      await admin.getByRole('button', { name: 'Add criterion', exact: true }).click();
      const second = admin.getByRole('group', { name: /^2\. / });
      await second.getByLabel('Label', { exact: true }).fill('Craft');
      await second.getByLabel('Weight', { exact: true }).fill('1');
      await second.getByLabel('Maximum score', { exact: true }).fill('5');
      await admin.getByText('Sum of weights: 4').waitFor();
      await admin.getByRole('button', { name: 'Create Examination', exact: true }).click();
      await admin.waitForURL(/\/manage-exam$/);

      await admin.goto(`${server.url}/manage-exam?search=${encodeURIComponent('Season Round 1')}`);
      await admin.getByRole('link', { name: ROUND1, exact: true }).click();
      await admin.waitForURL(/\/manage-exam\/\d+$/);
      round1.id = Number(/\/manage-exam\/(\d+)$/.exec(admin.url())![1]);
      await admin
        .getByRole('table', { name: 'Criteria' })
        .getByRole('row', { name: /Idea idea 3/ })
        .waitFor();
      await admin.getByText(tr('en', 'entities.exam.enum.ranking.normalised'), { exact: true }).waitFor();
      const stored = (await apiClient(admin).get(`/exams/${round1.id}`)).body.data;
      expect(stored).toMatchObject({ round: 1, parallel_panel: true, ranking: 'normalised', max_score: 100 });
      expect(stored.criteria).toEqual([
        { key: 'idea', label: 'Idea', weight: 3, maximum: 10, guidance: 'Is the idea new to the category?' },
        { key: 'craft', label: 'Craft', weight: 1, maximum: 5 },
      ]);
      expect(new Date(stored.opens_at).toISOString().slice(0, 16)).toBe(new Date(opens).toISOString().slice(0, 16));
      // Opened by the scheduler (every second here).
      await expect.poll(async () => (await apiClient(admin).get(`/exams/${round1.id}`)).body.data.status, { timeout: 20_000 }).toBe('open');
    });
  });

  step('sets the panel, declares a conflict on a juror’s page, and auto-assigns from the panel (preview, then save)', async () => {
    await withScreenshotOnFailure(admin, 'season-round1-panel', async () => {
      await openJudging(admin, round1.id);
      // Round 1 takes the approved entries of its category and edition only.
      round1.entries = await matrixEntries(admin);
      const eligible = (await apiClient(admin).get(`/exams/${round1.id}/entries`)).body.data as Array<{ id?: number; contest_id?: number; status: string }>;
      expect(round1.entries.map((e) => e.id).sort()).toEqual(eligible.map((e) => e.id ?? e.contest_id).sort());
      expect(eligible.every((e) => e.status === 'approved')).toBe(true);
      expect(round1.entries).toHaveLength(3);
      await setPanel(admin);
    });

    const conflicted = round1.entries[0]!;
    await withScreenshotOnFailure(admin, 'season-conflict', async () => {
      await admin.goto(`${server.url}/manage-jury?search=${encodeURIComponent(CITRA.name)}`);
      await admin.getByRole('link', { name: CITRA.name, exact: true }).click();
      await admin.waitForURL(`**/manage-jury/${CITRA.id}`);
      const section = admin.getByTestId('juror-conflicts');
      await section.getByText(tr('en', 'judging.conflicts.none')).waitFor();
      await section.getByRole('combobox', { name: tr('en', 'judging.conflicts.kind') }).click();
      await admin.getByRole('option', { name: tr('en', 'judging.conflicts.kinds.entry'), exact: true }).click();
      await section.getByRole('spinbutton', { name: tr('en', 'judging.conflicts.entry_id') }).fill(String(conflicted.id));
      await section.getByRole('textbox', { name: tr('en', 'judging.conflicts.reason') }).fill('Advised the agency on this campaign');
      await section.getByRole('button', { name: tr('en', 'judging.conflicts.declare') }).click();
      await toast(admin, tr('en', 'judging.conflicts.declared')).waitFor();
      await section.getByRole('rowheader', { name: tr('en', 'judging.conflicts.entry_target', { id: conflicted.id }) }).waitFor();
    });

    await withScreenshotOnFailure(admin, 'season-round1-assign', async () => {
      await openJudging(admin, round1.id);
      await autoAssign(admin, 3);
      const preview = admin.getByTestId('plan-preview');
      await preview.getByText(tr('en', 'judging.screen.plan_summary', { count: 8 })).waitFor();
      // Who gets what: every entry with its jurors, Citra never on the conflicted entry, which falls one short.
      const who = await cellsOf(admin, tr('en', 'judging.screen.plan_who'));
      expect(who).toHaveLength(3);
      // An entry's code is given at its first assignment: the preview may name it by id alone.
      const label = conflicted.code ? `${conflicted.id} · ${conflicted.code}` : String(conflicted.id);
      const row = who.find((r) => r[0] === `#${label}`)!;
      expect(row[1]!.split(', ').sort()).toEqual([AYU.name, BUDI.name]);
      await preview.getByText(tr('en', 'judging.screen.short_title')).waitFor();
      await preview
        .getByText(
          tr('en', 'judging.screen.short_row', {
            id: label,
            missing: 1,
            reason: tr('en', 'judging.screen.reason_conflict_of_interest', { count: 1 }),
          }),
        )
        .waitFor();
      await admin.getByRole('button', { name: tr('en', 'judging.screen.save_plan'), exact: true }).click();
      await admin.getByText(tr('en', 'judging.screen.saved')).waitFor();
      await admin.getByRole('columnheader', { name: `${AYU.name} (3)` }).waitFor();
      await admin.getByRole('columnheader', { name: `${CITRA.name} (2)` }).waitFor();
      // Blind codes, unique in the exam, now that every entry is assigned.
      round1.entries = await matrixEntries(admin);
      for (const e of round1.entries) expect(e.code).toMatch(/^R1-[A-Z0-9]{4,}$/);
      expect(new Set(round1.entries.map((e) => e.code)).size).toBe(3);
      expect(round1.entries[0]!.id).toBe(conflicted.id);
    });
    const matrix = (await apiClient(admin).get(`/exams/${round1.id}/matrix`)).body.data as { assignments: Array<{ contest_id: number; jury_id: number }> };
    expect(matrix.assignments).toHaveLength(8);
    expect(matrix.assignments.some((a) => a.jury_id === CITRA.id && a.contest_id === conflicted.id)).toBe(false);
  });

  step('the three jurors score Round 1 blind: codes only, never an entry’s id or entrant', async () => {
    for (const juror of JURORS) {
      const page = juror.page!;
      await withScreenshotOnFailure(page, `season-round1-score-${juror.key}`, async () => {
        const entries = await portalEntries(juror, ROUND1);
        await expect.poll(() => entries.count()).toBe(juror === CITRA ? 2 : 3);
        await expectBlind(juror, round1.entries, 'R1');
        for (const [n, scores] of R1_SCORES[juror.key].entries()) {
          if (scores) await score(juror, round1.entries[n]!.code, scores);
        }
        await page.getByText(tr(juror.lng, 'judging.portal.your_progress', { submitted: juror === CITRA ? 2 : 3, total: juror === CITRA ? 2 : 3 })).waitFor();
      });
    }
  });

  step('reopens one grade on the moderation screen with a reason (the admin in Malay); the juror scores it again', async () => {
    const flagged = round1.entries[2]!;
    await withScreenshotOnFailure(admin, 'season-moderation', async () => {
      await admin.goto(`${server.url}/manage-exam/${round1.id}/results`);
      await switchLanguage(admin, 'ms');
      await admin.getByRole('link', { name: new RegExp(`^${tr('ms', 'results.moderation.open')}`) }).click();
      await admin.waitForURL(`**/manage-exam/${round1.id}/moderation`);
      const title = tr('ms', 'results.moderation.entryCode', { code: flagged.code, id: flagged.id });
      const table = admin.getByRole('table', { name: title });
      await table.waitFor();
      await admin.getByRole('heading', { name: title }).locator('..').getByText(tr('ms', 'results.moderation.flagged')).waitFor();
      // Every juror's per-criterion scores side by side.
      const rows = await cellsOf(admin, title);
      expect(rows.map((r) => r[0]).sort()).toEqual(JURORS.map((j) => j.name).sort());
      expect(rows.find((r) => r[0] === CITRA.name)!.slice(2, 4)).toEqual(['3', '1']);

      await table.getByRole('button', { name: tr('ms', 'results.moderation.reopenLabel', { juror: CITRA.name }) }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByRole('heading', { name: tr('ms', 'results.moderation.reopenTitle', { juror: CITRA.name, id: flagged.id }) }).waitFor();
      await dialog.getByRole('textbox', { name: tr('ms', 'results.moderation.reason') }).fill(REOPEN_REASON);
      await dialog.getByRole('button', { name: tr('ms', 'results.moderation.reopen'), exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await toast(admin, tr('ms', 'results.moderation.reopened', { juror: CITRA.name })).waitFor();
      await table.getByText(tr('ms', 'results.gradeScores.reopenReason', { reason: REOPEN_REASON })).waitFor();
      await switchLanguage(admin, 'en');
    });
    const moderation = (await apiClient(admin).get(`/exams/${round1.id}/moderation`)).body.data as {
      entries: Array<{ contestId: number; grades: Array<{ juror: string; status: string; reopenReason: string | null }> }>;
    };
    expect(moderation.entries.find((e) => e.contestId === flagged.id)!.grades.find((g) => g.juror === CITRA.name)).toMatchObject({
      status: 'draft',
      reopenReason: REOPEN_REASON,
    });
    // Told by the log until the notifications issue sends mail.
    const told = () =>
      server
        .output()
        .split('\n')
        .some((line) => line.includes('"grade.reopened"') && line.includes(REOPEN_REASON) && line.includes(`"jury_id":${CITRA.id}`));
    await expect.poll(told, { timeout: 15_000 }).toBe(true);

    await withScreenshotOnFailure(CITRA.page!, 'season-rescore', async () => {
      const entries = await portalEntries(CITRA, ROUND1);
      // Back in progress, in her language; her earlier scores kept for her to change.
      await entries.filter({ hasText: flagged.code }).getByText(tr(CITRA.lng, 'judging.portal.statuses.in_progress'), { exact: true }).waitFor();
      await score(CITRA, flagged.code, { idea: 8, craft: 4 });
      await CITRA.page!.getByText(tr(CITRA.lng, 'judging.portal.your_progress', { submitted: 2, total: 2 })).waitFor();
    });
  });

  step('closes Round 1, reads the results ranked by normalised score, and shortlists the top two', async () => {
    let shortlisted: number[] = [];
    await withScreenshotOnFailure(admin, 'season-round1-results', async () => {
      await openJudging(admin, round1.id);
      await moveExam(admin, 'close', 'closed');
      await admin.getByRole('link', { name: tr('en', 'results.open'), exact: true }).click();
      await admin.waitForURL(`**/manage-exam/${round1.id}/results`);
      const data = await results(round1.id);
      expect(data.ranking).toBe('normalised');
      await admin
        .getByRole('note')
        .filter({ hasText: tr('en', 'results.basisNote', { basis: tr('en', 'results.basis.normalised') }) })
        .waitFor();
      const sorted = admin.getByRole('table', { name: tr('en', 'results.title') }).locator('th[aria-sort="descending"]');
      expect(await sorted.textContent()).toContain(tr('en', 'results.columns.normalised'));
      // Citra gave two grades: kept raw, and the screen says so.
      await admin.getByText(tr('en', 'results.rawNote.few_grades', { name: CITRA.name })).waitFor();
      // The screen's order is the normalised score's, highest first.
      const rows = await cellsOf(admin, tr('en', 'results.title'));
      const shownIds = rows.map((r) => Number(/#(\d+)/.exec(r[2]!)![1]));
      expect(shownIds).toEqual(data.entries.map((e) => e.contestId));
      const normalised = data.entries.map((e) => e.normalised!);
      expect(normalised).toEqual([...normalised].sort((a, b) => b - a));
      expect(data.entries.every((e) => e.score === e.normalised)).toBe(true);
      shortlisted = data.entries.slice(0, 2).map((e) => e.contestId);

      await admin.getByRole('spinbutton', { name: tr('en', 'results.shortlist.top') }).fill('2');
      await admin.getByRole('button', { name: tr('en', 'results.actions.preview'), exact: true }).click();
      await admin.getByText(tr('en', 'results.shortlist.preview')).waitFor();
      await admin.getByRole('button', { name: tr('en', 'results.actions.shortlist'), exact: true }).click();
      const moved = tr('en', 'results.shortlist.added', { count: 2, exam: ROUND2, ids: shortlisted.map((id) => `#${id}`).join(', ') });
      await admin.locator('.Toastify').getByText(moved).waitFor();
    });
    expect(shortlisted).toHaveLength(2);
  });

  step('sets up Round 2 on exactly the shortlist, and the jurors score it blind', async () => {
    // Citra's declared conflict follows the entry into Round 2 when it is shortlisted.
    const conflicted = round1.entries[0]!.id;
    let citraShare = 2;
    await withScreenshotOnFailure(admin, 'season-round2-assign', async () => {
      await admin.goto(`${server.url}/exam-judging`);
      await admin.getByRole('link', { name: new RegExp(`^${ROUND2}`) }).click();
      await admin.waitForURL(/\/exam-judging\/\d+$/);
      round2.id = Number(/\/exam-judging\/(\d+)$/.exec(admin.url())![1]);
      let entries = await matrixEntries(admin);
      const shortlist = (await results(round1.id)).entries.slice(0, 2).map((e) => e.contestId);
      // The matrix lists exactly the shortlisted entries, and so does the exam's list of eligible entries.
      expect(entries.map((e) => e.id).sort()).toEqual([...shortlist].sort());
      const eligible = (await apiClient(admin).get(`/exams/${round2.id}/entries`)).body.data as Array<{ contest_id: number; source: { kind: string } }>;
      expect(eligible.map((e) => e.contest_id).sort()).toEqual([...shortlist].sort());
      expect(eligible.every((e) => e.source.kind === 'shortlisted')).toBe(true);
      if (shortlist.includes(conflicted)) citraShare = 1;
      await setPanel(admin);
      await autoAssign(admin, 3);
      await admin
        .getByTestId('plan-preview')
        .getByText(tr('en', 'judging.screen.plan_summary', { count: 4 + citraShare }))
        .waitFor();
      await admin.getByRole('button', { name: tr('en', 'judging.screen.save_plan'), exact: true }).click();
      await admin.getByText(tr('en', 'judging.screen.saved')).waitFor();
      await admin.getByRole('columnheader', { name: `${CITRA.name} (${citraShare})` }).waitFor();
      entries = await matrixEntries(admin);
      for (const e of entries) expect(e.code).toMatch(/^R2-[A-Z0-9]{4,}$/);
      // New codes in the new round: Round 1's never follow an entry.
      for (const e of entries) expect(e.code).not.toBe(round1.entries.find((r) => r.id === e.id)!.code);
      round2.entries = entries;
    });

    // Ayu is lenient, Budi harsh; all three agree on the order.
    const points: Record<Juror['key'], number[]> = { ayu: [0.9, 0.8], budi: [0.6, 0.4], citra: [0.8, 0.6] };
    for (const juror of JURORS) {
      const page = juror.page!;
      await withScreenshotOnFailure(page, `season-round2-score-${juror.key}`, async () => {
        const entries = await portalEntries(juror, ROUND2);
        await expect.poll(() => entries.count()).toBe(juror === CITRA ? citraShare : 2);
        await expectBlind(juror, round2.entries, 'R2');
        for (const [n, entry] of round2.entries.entries()) {
          if (juror === CITRA && entry.id === conflicted) continue;
          await score(juror, entry.code, (maximum) => Math.round(points[juror.key][n]! * maximum), `Round 2 remarks by ${juror.name}`);
        }
      });
    }
  });

  step('closes Round 2, overrides one award with a reason, finalises and exports the CSV', async () => {
    await withScreenshotOnFailure(admin, 'season-awards', async () => {
      await openJudging(admin, round2.id);
      await moveExam(admin, 'close', 'closed');
      await admin.getByRole('link', { name: tr('en', 'results.open'), exact: true }).click();
      await admin.waitForURL(`**/manage-exam/${round2.id}/results`);
      const before = await results(round2.id);
      expect(before.entries.map((e) => e.contestId).sort()).toEqual(round2.entries.map((e) => e.id).sort());
      const second = before.entries[1]!;
      const categories = (await apiClient(admin).get('/award-categories')).body.data as Array<{ id: number; name: string }>;
      const chosen = categories.find((c) => c.id !== second.award?.id && c.name !== before.entries[0]!.award?.name)!;

      await admin.getByRole('button', { name: `${tr('en', 'results.actions.override')} #${second.contestId}`, exact: true }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByRole('combobox', { name: tr('en', 'results.columns.award') }).click();
      await admin.getByRole('option', { name: chosen.name, exact: true }).click();
      await dialog.getByRole('textbox', { name: tr('en', 'results.reason') }).fill('The jury chair asked for a special mention');
      await dialog.getByRole('button', { name: tr('en', 'results.actions.override'), exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = admin
        .getByRole('table', { name: tr('en', 'results.title') })
        .getByRole('row')
        .filter({ hasText: `#${second.contestId}` });
      await row.getByText(tr('en', 'results.overridden', { reason: 'The jury chair asked for a special mention' })).waitFor();

      await admin.getByRole('button', { name: tr('en', 'results.actions.finalise'), exact: true }).click();
      await yes(admin, 'en');
      await toast(admin, tr('en', 'results.toasts.finalised')).waitFor();
      await admin
        .getByRole('status')
        .filter({ hasText: /^Final since / })
        .waitFor();

      const after = await results(round2.id);
      expect(after.finalised).toBeTruthy();
      expect(after.entries.find((e) => e.contestId === second.contestId)).toMatchObject({
        award: { id: chosen.id },
        awardOverridden: true,
        awardReason: 'The jury chair asked for a special mention',
      });

      const [download] = await Promise.all([
        admin.waitForEvent('download'),
        admin.getByRole('button', { name: tr('en', 'results.actions.export'), exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`results-exam-${round2.id}.csv`);
      const rows = parse(fs.readFileSync((await download.path())!, 'utf8'), { bom: true, columns: true }) as Array<Record<string, string>>;
      expect(rows).toHaveLength(2);
      const header = (key: string) => tr('en', `results.columns.${key}`);
      for (const [i, entry] of after.entries.entries()) {
        const line = rows[i]!;
        expect(Number(line[header('contest')])).toBe(entry.contestId);
        expect(line[header('rank')]).toBe(String(entry.rank));
        expect(line[header('award')]).toBe(entry.award?.name ?? '');
      }
      const changed = rows.find((r) => Number(r[header('contest')]) === second.contestId)!;
      expect(changed[header('overrideReason')]).toBe('The jury chair asked for a special mention');
      expect(changed[header('ruleAward')]).toBe(second.award?.name ?? '');
    });
  });
});
