import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneOffsetMinutes } from '../../src/engine/widgets/zoned-time.js';
import { type BrowserSuite, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite, switchLanguage } from '../helpers/e2e-page.js';

/**
 * A season's exam from the form to the portal, in English and in Malay: the exam form takes its
 * opening and closing times in the user's zone (Asia/Jakarta, named beside the fields) and its
 * criteria in the criteria editor; the exam opens by itself (the scheduler, every second here); the
 * juror's portal shows the deadline, the progress, each criterion's guidance and the entries by
 * blind code, never counts an invalid score, and moves on to the next entry after a submit.
 */

const ZONE = 'Asia/Jakarta';
const HOUR = 3_600_000;
let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;

const TEXT = {
  en: {
    create: 'Create Examination',
    round1: 'Round 1',
    add: 'Add criterion',
    label: 'Label',
    weight: 'Weight',
    maximum: 'Maximum score',
    guidance: 'Guidance for jurors',
    sum: 'Sum of weights: 4',
    entries: 'Entries to score',
    closes: /^Closes in 3 days · .+ \(Asia\/Jakarta, UTC\+7\)$/,
    progress: (n: number, total: number) => `Your progress: ${n} of ${total} submitted`,
    outOfRange: 'The score must be from 0 to 10.',
    blocked: 'Correct the invalid score before submitting: Idea.',
    total: (n: number) => `Total: ${n} / 100`,
    submit: 'Submit grade',
    yes: 'Yes',
    submitted: 'Submitted',
    conflict: 'I know this entry',
    conflictConfirm: 'Declare the conflict',
    reasonRequired: 'Please give a reason.',
    reason: 'How do you know this entry?',
    recused: 'Recused',
    entry: /^(R1-[A-Z0-9]+|Entry \d+)$/,
    delete: 'Delete',
    no: 'No',
    impact: 'This examination already has 1 grade from the jurors. Deleting it removes that grade from the results.',
  },
  ms: {
    create: 'Cipta Penilaian',
    round1: 'Pusingan 1',
    add: 'Tambah kriteria',
    label: 'Label',
    weight: 'Wajaran',
    maximum: 'Skor maksimum',
    guidance: 'Panduan untuk juri',
    sum: 'Jumlah wajaran: 4',
    entries: 'Penyertaan untuk dimarkah',
    closes: /^Ditutup dalam 3 hari · .+ \(Asia\/Jakarta, UTC\+7\)$/,
    progress: (n: number, total: number) => `Kemajuan anda: ${n} daripada ${total} dihantar`,
    outOfRange: 'Skor mesti dari 0 hingga 10.',
    // Malay has no plural form: one invalid score is counted as any number is.
    blocked: 'Betulkan 1 skor yang tidak sah sebelum menghantar: Idea.',
    total: (n: number) => `Jumlah: ${n} / 100`,
    submit: 'Hantar markah',
    yes: 'Ya',
    submitted: 'Dihantar',
    conflict: 'Saya mengenali penyertaan ini',
    conflictConfirm: 'Isytiharkan konflik',
    reasonRequired: 'Sila berikan sebab.',
    reason: 'Bagaimana anda mengenali penyertaan ini?',
    recused: 'Menarik diri',
    entry: /^(R1-[A-Z0-9]+|Penyertaan \d+)$/,
    delete: 'Padam',
    no: 'Tidak',
    impact: 'Penilaian ini sudah mempunyai 1 markah daripada juri. Memadamnya akan memadam markah tersebut daripada keputusan.',
  },
} as const;

/** `ms` as a `datetime-local` value in Jakarta's wall time. */
function jakartaInput(ms: number): string {
  return new Date(ms + zoneOffsetMinutes(ZONE, ms) * 60_000).toISOString().slice(0, 16);
}

/** A page in its own context set in Jakarta, at a desktop width. */
async function jakartaPage(): Promise<Page> {
  return (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: ZONE })).newPage();
}

beforeAll(async () => {
  ({ server, browser } = suite = await startBrowserSuite({ DEMO_DATA: 'true', EXAM_SCHEDULER_SECONDS: '1' }));
  admin = await jakartaPage();
  await signIn(admin, server.url);
}, 240_000);
afterAll(() => suite?.close());

describe.each(['en', 'ms'] as const)('an exam from the form to the jury portal (%s)', (lng) => {
  const text = TEXT[lng];
  const name = `Season portal ${lng}`;
  let examId: number;
  let total: number;
  let juror: Page;

  it('creates the exam in the form: dates in the user’s zone, criteria in the editor; it opens by itself', async () => {
    await withScreenshotOnFailure(admin, `season-portal-${lng}-form`, async () => {
      const categories = (await apiClient(admin).get('/categories')).body.data as Array<{ id: number; name: string }>;
      const category = categories[lng === 'en' ? 0 : 1]!;
      await admin.goto(`${server.url}/create-exam`);
      await switchLanguage(admin, lng);
      await admin.locator('#exam-create_name').fill(name);
      await admin.locator('#exam-create_category_id').click();
      await admin
        .getByRole('option', { name: new RegExp(category.name) })
        .first()
        .click();
      await admin.getByRole('radio', { name: text.round1, exact: true }).click();
      // The demo data holds a Round 1 exam of every category: this one is a parallel panel.
      await admin.locator('#exam-create_parallel_panel').click();
      const opens = Date.now() - 2 * 60_000;
      const closes = Date.now() + 3 * 24 * HOUR + 2 * HOUR;
      await admin.locator('#exam-create_opens_at').fill(jakartaInput(opens));
      await admin.locator('#exam-create_closes_at').fill(jakartaInput(closes));
      expect(await admin.getByText('Asia/Jakarta, UTC+7').count()).toBe(2);

      await admin.getByRole('button', { name: text.add, exact: true }).click();
      const first = admin.getByRole('group', { name: /^1\. / });
      await first.getByLabel(text.label, { exact: true }).fill('Idea');
      await first.getByLabel(text.weight, { exact: true }).fill('3');
      await first.getByLabel(text.maximum, { exact: true }).fill('10');
      await first.getByLabel(text.guidance, { exact: true }).fill('Is the idea new to the category?');
      await admin.getByRole('button', { name: text.add, exact: true }).click();
      const second = admin.getByRole('group', { name: /^2\. / });
      await second.getByLabel(text.label, { exact: true }).fill('Craft');
      await second.getByLabel(text.maximum, { exact: true }).fill('5');
      await admin.getByText(text.sum).waitFor();
      await admin.getByRole('button', { name: text.create, exact: true }).click();
      await admin.waitForURL(/\/manage-exam$/);
      const found = (await apiClient(admin).get(`/exams?search=${encodeURIComponent(name)}`)).body.data as Array<{ id: number; name: string }>;
      examId = found.find((e) => e.name === name)!.id;
      await admin.goto(`${server.url}/manage-exam/${examId}`);

      // Stored as UTC instants; the detail shows the criteria as a table.
      const stored = (await apiClient(admin).get(`/exams/${examId}`)).body.data;
      expect(new Date(stored.opens_at).toISOString().slice(0, 16)).toBe(new Date(opens).toISOString().slice(0, 16));
      expect(new Date(stored.closes_at).toISOString().slice(0, 16)).toBe(new Date(closes).toISOString().slice(0, 16));
      expect(stored.criteria).toEqual([
        { key: 'idea', label: 'Idea', weight: 3, maximum: 10, guidance: 'Is the idea new to the category?' },
        { key: 'craft', label: 'Craft', weight: 1, maximum: 5 },
      ]);
      const table = admin.getByRole('table', { name: lng === 'en' ? 'Criteria' : 'Kriteria' });
      await table.getByRole('row', { name: /Idea idea 3/ }).waitFor();

      await expect.poll(async () => (await apiClient(admin).get(`/exams/${examId}`)).body.data.status, { timeout: 15_000 }).toBe('open');
      const plan = (await apiWrite(admin, 'POST', `/exams/${examId}/auto-assign`, { per_entry: 12, dry_run: false })) as {
        planned: Array<{ jury_id: number }>;
      };
      const accounts = (await apiClient(admin).get('/accounts')).body.data as Array<{ jury_id?: number | null }>;
      const taken = new Set(accounts.map((a) => a.jury_id).filter(Boolean));
      const juryId = plan.planned.map((p) => p.jury_id).find((id) => !taken.has(id))!;
      total = plan.planned.filter((p) => p.jury_id === juryId).length;
      expect(total).toBeGreaterThanOrEqual(3);
      const email = `season.portal.${lng}@example.com`;
      await apiWrite(admin, 'POST', '/auth/register', {
        name: `Season Juror ${lng}`,
        email,
        password: 'season-portal-passphrase',
        role: 'juror',
        jury_id: juryId,
      });
      juror = await jakartaPage();
      await juror.goto(`${server.url}/login?lng=${lng}`);
      await signIn(juror, server.url, { email, password: 'season-portal-passphrase', goto: false });
      await juror.waitForURL('**/jury');
    });
  });

  it('shows the deadline and progress, never counts an invalid score, and moves to the next entry after a submit', async () => {
    await withScreenshotOnFailure(juror, `season-portal-${lng}-portal`, async () => {
      await switchLanguage(juror, lng);
      await juror.getByRole('button', { name: new RegExp(name) }).click();
      const card = juror.getByRole('button', { name: new RegExp(name) });
      await expect.poll(() => card.getByTestId('exam-deadline').textContent()).toMatch(text.closes);
      await juror.getByText(text.progress(0, total)).waitFor();
      const entries = juror.getByRole('navigation', { name: text.entries }).getByRole('button');
      await expect.poll(() => entries.count()).toBe(total);
      // Entries by blind code, never the contest's id.
      const labels = await entries.evaluateAll((buttons) => buttons.map((b) => b.firstElementChild?.textContent ?? ''));
      for (const label of labels) expect(label).toMatch(text.entry);
      await entries.first().click();
      await juror.getByText('Is the idea new to the category?').waitFor();

      const idea = juror.locator('input[name="score-idea"]:not([disabled])');
      await idea.fill('15');
      await juror.locator('input[name="score-craft"]:not([disabled])').fill('5');
      await juror.getByText(text.outOfRange).waitFor();
      expect(await idea.getAttribute('aria-invalid')).toBe('true');
      // Craft alone counts: 100 × (1 × 5/5) / 4.
      await juror.getByText(text.total(25), { exact: true }).waitFor();
      const submit = juror.getByRole('button', { name: text.submit, exact: true });
      expect(await submit.isDisabled()).toBe(true);
      await juror.getByText(text.blocked).waitFor();

      await idea.fill('8');
      await juror.getByText(text.total(85), { exact: true }).waitFor();
      await submit.click();
      await juror.getByRole('dialog').getByRole('button', { name: text.yes, exact: true }).click();
      await entries.first().getByText(text.submitted).waitFor();
      await juror.getByText(text.progress(1, total)).waitFor();
      // On to the next entry needing work.
      await expect.poll(() => entries.nth(1).getAttribute('aria-current')).toBe('true');
      await juror.locator('input[name="score-idea"]:not([disabled])').waitFor();
    });
  });

  it('declares "I know this entry" with a required reason before scoring', async () => {
    await withScreenshotOnFailure(juror, `season-portal-${lng}-conflict`, async () => {
      const entries = juror.getByRole('navigation', { name: text.entries }).getByRole('button');
      await juror.getByRole('button', { name: text.conflict, exact: true }).click();
      const dialog = juror.getByRole('dialog');
      await dialog.getByRole('button', { name: text.conflictConfirm, exact: true }).click();
      await dialog.getByText(text.reasonRequired).waitFor();
      await dialog.getByLabel(text.reason).fill('I mentored this team last year');
      await dialog.getByRole('button', { name: text.conflictConfirm, exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await entries.nth(1).getByText(text.recused).waitFor();
    });
  });

  it('warns before deleting the exam that it has grades, naming how many', async () => {
    await withScreenshotOnFailure(admin, `season-portal-${lng}-delete`, async () => {
      await admin.goto(`${server.url}/manage-exam/${examId}`);
      await admin.getByRole('button', { name: text.delete, exact: true }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByText(text.impact).waitFor();
      await dialog.getByRole('button', { name: text.no, exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await apiClient(admin).get(`/exams/${examId}`)).status).toBe(200);
    });
  });
});
