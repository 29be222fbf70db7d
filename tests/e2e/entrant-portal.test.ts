import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiWrite } from '../helpers/e2e-page.js';

/**
 * The entrant portal end to end, on a server whose contest descriptor has a question added with no
 * code (tests/fixtures/added-question): a submittor signs in, drafts an entry with a key visual and
 * the added question (saved as typed), reloads, submits; the admin sees the question on the entry's
 * page and approves it in the bulk review; a juror assigned to it sees the question in the portal.
 */
const fixture = path.resolve('tests/fixtures/added-question');
const question = JSON.parse(fs.readFileSync(path.join(fixture, 'question.json'), 'utf8')) as {
  field: string;
  schemaProperty: Record<string, unknown>;
  portal: { uiSchema: Record<string, unknown>; jurorVisible: boolean };
  detailSection: string;
};
const LABEL = (
  JSON.parse(fs.readFileSync(path.join(fixture, 'locales/en/question.json'), 'utf8')) as { entities: { contest: { fields: Record<string, string> } } }
).entities.contest.fields[question.field]!;

/** Copies of entities/ and schemas/ with the question added as a programme would add it: schema, portal form (and jurors), detail section. */
function withQuestion(): { entities: string; schemas: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'awards-question-'));
  const entities = path.join(dir, 'entities');
  const schemas = path.join(dir, 'schemas');
  fs.cpSync('entities', entities, { recursive: true });
  fs.cpSync('schemas', schemas, { recursive: true });
  const schemaFile = path.join(schemas, 'contest.schema.json');
  const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
  schema.properties[question.field] = question.schemaProperty;
  fs.writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
  const descriptorFile = path.join(entities, 'contest.json');
  const descriptor = JSON.parse(fs.readFileSync(descriptorFile, 'utf8'));
  // The schema's "$schema" reference stays resolvable from the copy.
  descriptor.$schema = path.resolve('schemas/descriptor.schema.json');
  descriptor.forms.portal.fields.push(question.field);
  descriptor.forms.portal.uiSchema[question.field] = question.portal.uiSchema;
  if (question.portal.jurorVisible) descriptor.forms.portal.jurorFields.push(question.field);
  descriptor.detail.sections.find((s: { title: string }) => s.title === question.detailSection).fields.push({ field: question.field, cell: 'truncate' });
  fs.writeFileSync(descriptorFile, JSON.stringify(descriptor, null, 2));
  return { entities, schemas };
}

// A 4 × 3 PNG (the media check reads the type from the content).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4kWIERww4OQBHKhBpqqu7qgAAAABJRU5ErkJggg==', 'base64');
const ENTRANT = { email: 'maya@agency.example', password: 'maya-entrant-pass' };
const JUROR = { email: 'juror.entrants@example.com', password: 'juror-entrants-pass' };

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;
let dirs: { entities: string; schemas: string };
let category: number;
let entryId: number;

beforeAll(async () => {
  dirs = withQuestion();
  ({ server, browser } = suite = await startBrowserSuite({
    ENTITIES_DIR: dirs.entities,
    SCHEMAS_DIR: dirs.schemas,
    LOCALES_DIR: path.join(fixture, 'locales'),
  }));
  admin = await (await newContext(browser)).newPage();
  await signIn(admin, server.url);
  await apiWrite(admin, 'POST', '/editions', {
    name: 'Awards 2030',
    year: 2030,
    status: 'open',
    entries_close_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  category = Number(
    (await apiWrite(admin, 'POST', '/categories', { name: 'Best Use of Outdoor', description: 'Billboards and transit', status: 'active' })).id,
  );
  await apiWrite(admin, 'POST', '/customers', { email: ENTRANT.email, password: ENTRANT.password, password_confirmation: ENTRANT.password, max_entries: 3 });
  const jury = await apiWrite(admin, 'POST', '/juries', { name: 'Outdoor Juror', email: JUROR.email, round: 1, is_active: true });
  await apiWrite(admin, 'POST', '/auth/register', { name: 'Outdoor Juror', email: JUROR.email, password: JUROR.password, role: 'juror', jury_id: jury.id });
}, 240_000);
afterAll(async () => {
  await suite?.close();
  if (dirs) fs.rmSync(path.dirname(dirs.entities), { recursive: true, force: true });
});

describe('the entrant portal', () => {
  it('drafts, reloads and submits an entry; the admin approves it; its juror sees the added question', async () => {
    const page = await (await newContext(browser)).newPage();
    await withScreenshotOnFailure(page, 'entrant-portal', async () => {
      await page.goto(`${server.url}/login?lng=en`);
      await signIn(page, server.url, { ...ENTRANT, goto: false });
      await page.waitForURL('**/entries');
      await page.getByText('You have no entries yet. Start one with New entry.').waitFor();
      expect(await page.title()).toContain('My entries');
      // The console is not theirs.
      await page.goto(`${server.url}/manage-contest`);
      await page.waitForURL((url) => url.pathname !== '/manage-contest');

      await page.goto(`${server.url}/entries/new`);
      await page.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option', { name: 'Best Use of Outdoor' }).click();
      await page.getByRole('button', { name: 'Start the entry' }).click();
      await page.waitForURL(/\/entries\/\d+$/);
      entryId = Number(new URL(page.url()).pathname.split('/').pop());

      // The form is the descriptor's portal form, with the added question; saved as typed.
      await page.getByLabel('Strategy').fill('Every bus stop tells the river story.');
      await page.getByLabel('Creative Idea').fill('Billboards that filter the air.');
      await page.getByLabel(LABEL).fill('Ten tonnes of CO2 filtered.');
      await page.locator('input[type="file"][id$="campaign_kv_url"]').setInputFiles({ name: 'kv.png', mimeType: 'image/png', buffer: PNG });
      await page.getByTestId('autosave-state').getByText('Draft saved.').waitFor();
      // The key visual shows from the console itself, in the form.
      await expect.poll(async () => (await page.locator('form img').first().getAttribute('src')) ?? '').toMatch(/^\/api\/media\//);
      // The upload is a change of its own: saved only once it is, and never shown saved while it waits.
      await page.getByTestId('autosave-state').getByText('Draft saved.').waitFor();
      // A change typed after a save is not shown as saved until it is (the old screen kept 'Draft saved.').
      await page.getByLabel('Creative Idea').fill('Billboards that filter the city air.');
      expect(await page.getByTestId('autosave-state').textContent()).toBe('Saving...');
      await page.getByTestId('autosave-state').getByText('Draft saved.').waitFor();

      await page.reload();
      await expect.poll(() => page.getByLabel(LABEL).inputValue()).toBe('Ten tonnes of CO2 filtered.');
      expect(await page.getByLabel('Strategy').inputValue()).toBe('Every bus stop tells the river story.');
      await page.locator('form img').first().waitFor();

      await page.getByRole('button', { name: 'Submit entry' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Submit entry' }).click();
      await page.getByTestId('entry-status').getByText('Submitted').waitFor();
      // Read-only now, with the answers shown.
      await page.getByText('Ten tonnes of CO2 filtered.').waitFor();
      expect(await page.getByRole('button', { name: 'Submit entry' }).count()).toBe(0);
      // Listed with its status.
      await page.goto(`${server.url}/entries`);
      await page.getByTestId('entry-row').getByText('Submitted').waitFor();
    });

    await withScreenshotOnFailure(admin, 'entrant-portal-admin', async () => {
      // The console's entry page shows the added question.
      await admin.goto(`${server.url}/manage-contest/${entryId}`);
      await admin.getByText(LABEL, { exact: true }).waitFor();
      await admin.getByText('Ten tonnes of CO2 filtered.').waitFor();
      // Approved in the bulk review.
      await admin.goto(`${server.url}/review-entries`);
      await admin.getByRole('checkbox', { name: `Choose entry #${entryId}` }).click();
      await admin.getByTestId('review-row').getByText(ENTRANT.email).waitFor();
      await admin.getByRole('button', { name: 'Approve', exact: true }).click();
      await admin.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await admin.getByText('No submitted entry is waiting for review.').waitFor();
    });

    // A Round 1 exam takes the approved entry; the juror of its panel is assigned to it.
    const exam = await apiWrite(admin, 'POST', '/exams', {
      name: 'Outdoor Round 1',
      category_id: category,
      round: 1,
      max_score: 100,
      criteria: [{ key: 'idea', label: 'Idea', weight: 1, maximum: 10 }],
    });
    await apiWrite(admin, 'POST', `/exams/${exam.id}/status`, { status: 'open' });
    await apiWrite(admin, 'POST', `/exams/${exam.id}/auto-assign`, { per_entry: 1, dry_run: false });

    const juror = await (await newContext(browser)).newPage();
    await withScreenshotOnFailure(juror, 'entrant-portal-juror', async () => {
      await juror.goto(`${server.url}/login?lng=en`);
      await signIn(juror, server.url, { ...JUROR, goto: false });
      await juror.waitForURL('**/jury');
      await juror.getByRole('button', { name: /Outdoor Round 1/ }).click();
      await juror.getByRole('navigation', { name: 'Entries to score' }).getByRole('button').first().click();
      await juror.getByText(LABEL, { exact: true }).waitFor();
      await juror.getByText('Ten tonnes of CO2 filtered.').waitFor();
      // Never who entered it.
      expect(await juror.getByText(ENTRANT.email).count()).toBe(0);
    });
  });
});
