import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/shared/format.js';
import { type SignedInSuite, type StartedServer, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, switchLanguage, toast } from '../helpers/e2e-page.js';

/**
 * The engine's promise: an entity dropped in as a descriptor, a schema and its labels in three
 * languages (tests/fixtures/sponsor, nothing else) gets a menu entry, a list, a detail page, create
 * and edit forms and delete, in every language, with the generic texts where it brings none.
 */
const fixture = path.resolve('tests/fixtures/sponsor');
const LANGUAGES = ['en', 'id', 'ms'] as const;
type Language = (typeof LANGUAGES)[number];
type Tree = { [key: string]: string | Tree };

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Tree;
const trees = Object.fromEntries(
  LANGUAGES.map((lng) => [lng, [read(path.join(fixture, 'locales', lng, 'sponsor.json')), read(path.join('locales', lng, 'common.json'))]]),
) as Record<Language, Tree[]>;

/** A text of `lng` as the browser shows it: the fixture's translations first, then the shipped ones. */
function text(lng: Language, key: string, values: Record<string, string> = {}): string {
  for (const tree of trees[lng]) {
    const found = key.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
    if (typeof found === 'string') return found.replace(/\{\{(\w+)(?:, \w+)?\}\}/g, (_, name: string) => values[name] ?? '');
  }
  throw new Error(`no text ${key} in ${lng}`);
}

/** A generic entity text filled with the sponsor's labels in `lng`. */
function generic(lng: Language, key: string, values: Record<string, string> = {}): string {
  const label = text(lng, 'entities.sponsor.label');
  const labelPlural = text(lng, 'entities.sponsor.label_plural');
  return text(lng, `common.entity.${key}`, { label, labelPlural, labelLower: label.toLowerCase(), labelPluralLower: labelPlural.toLowerCase(), ...values });
}

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

describe('an entity added with no code: the sponsor fixture', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    ({ server, page } = suite = await startSignedInSuite({
      ENTITIES_DIR: ['entities', path.join(fixture, 'entities')].join(path.delimiter),
      SCHEMAS_DIR: ['schemas', path.join(fixture, 'schemas')].join(path.delimiter),
      LOCALES_DIR: path.join(fixture, 'locales'),
    }));
  });
  afterAll(() => suite?.close());

  it('has nothing of the sponsor outside tests/fixtures/sponsor', () => {
    const mentions = (dir: string) =>
      fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((file) => fs.statSync(path.join(dir, file)).isFile() && /sponsor/i.test(fs.readFileSync(path.join(dir, file), 'utf8')));
    for (const dir of ['src', 'entities', 'schemas', 'locales']) expect(mentions(dir)).toEqual([]);
  });

  it.each(LANGUAGES)('lists, shows, creates, edits and deletes sponsors from the menu in %s', async (lng) => {
    await withScreenshotOnFailure(page, `sponsor-${lng}`, async () => {
      const name = `Sponsor ${lng.toUpperCase()} Sdn Bhd`;
      const renamed = `${name} Two`;
      await page.goto(`${server.url}/dashboard`);
      await switchLanguage(page, lng);

      // The menu: its own group and entry, from the descriptor's menu block.
      const group = page.getByRole('group', { name: text(lng, 'nav.groups.partners') }).filter({ visible: true });
      await group.getByRole('link', { name: text(lng, 'entities.sponsor.label_plural'), exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/manage-sponsor');
      await expect.poll(() => page.getByRole('heading', { name: generic(lng, 'list_title') }).isVisible()).toBe(true);
      await expect.poll(() => page.getByText(generic(lng, 'empty'), { exact: true }).isVisible()).toBe(true);
      expect(await page.title()).toContain(generic(lng, 'title'));

      // Create, with the tier as a select, a logo and an amount.
      await page.getByRole('link', { name: generic(lng, 'create_button') }).click();
      await page.waitForURL((url) => url.pathname === '/create-sponsor');
      await expect.poll(() => page.getByRole('heading', { name: generic(lng, 'create_title') }).isVisible()).toBe(true);
      await page.locator('#sponsor-create_name').fill(name);
      await page.locator('#sponsor-create_tier').click();
      await page.getByRole('option', { name: text(lng, 'entities.sponsor.enum.tier.gold') }).click();
      await page.locator('#sponsor-create_logo_url').fill(`${server.url}/favicon.svg`);
      await page.getByRole('textbox', { name: text(lng, 'common.amount.label') }).pressSequentially('5000');
      await page.getByRole('button', { name: generic(lng, 'submit_create') }).click();
      await expect.poll(() => toast(page, generic(lng, 'created')).isVisible()).toBe(true);
      await page.waitForURL((url) => url.pathname === '/manage-sponsor');

      // The list: the tier as a badge in this language, the logo as an image, the money with its currency.
      const row = page.getByRole('row', { name: new RegExp(name) });
      await expect.poll(() => row.getByText(text(lng, 'entities.sponsor.enum.tier.gold'), { exact: true }).isVisible()).toBe(true);
      expect(await row.locator('img').getAttribute('src')).toBe(`${server.url}/favicon.svg`);
      // As the one formatting module writes money in this language ('US$5,000.00' in en).
      const money = formatMoney(5000, 'USD', lng);
      expect(await row.getByText(money, { exact: true }).isVisible()).toBe(true);
      const columns = page.getByRole('columnheader');
      await expect
        .poll(() => columns.allTextContents())
        .toEqual(
          expect.arrayContaining(['name', 'tier', 'logo_url', 'amount'].map((field) => expect.stringContaining(text(lng, `entities.sponsor.fields.${field}`)))),
        );

      // The detail page.
      await row.getByRole('link', { name, exact: true }).click();
      await page.waitForURL(/\/manage-sponsor\/\d+$/);
      await expect.poll(() => page.getByRole('heading', { name, exact: true }).isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('heading', { name: text(lng, 'common.entity.details') }).isVisible()).toBe(true);
      expect(await page.getByText(text(lng, 'entities.sponsor.fields.tier'), { exact: true }).first().isVisible()).toBe(true);
      expect(await page.getByText(generic(lng, 'back_to_list')).first().isVisible()).toBe(true);
      const id = Number(new URL(page.url()).pathname.split('/').pop());

      // Edit from the list's row action.
      await page.goto(`${server.url}/manage-sponsor`);
      await page
        .getByRole('row', { name: new RegExp(name) })
        .getByRole('link', { name: text(lng, 'common.rowActions.editRecord', { name }) })
        .click();
      await page.waitForURL((url) => url.pathname === `/manage-sponsor/edit/${id}`);
      const nameField = page.locator('#sponsor-edit_name');
      await expect.poll(() => nameField.inputValue()).toBe(name);
      await nameField.fill(renamed);
      await page.getByRole('button', { name: generic(lng, 'submit_update') }).click();
      await expect.poll(() => toast(page, generic(lng, 'updated')).isVisible()).toBe(true);
      await page.waitForURL((url) => url.pathname === '/manage-sponsor');
      const stored = await apiClient(page).get(`/sponsors/${id}`);
      expect(stored.body.data).toMatchObject({ name: renamed, tier: 'gold', logo_url: `${server.url}/favicon.svg`, amount: { amount: 5000, currency: 'USD' } });

      // Delete, confirmed in the generic words.
      const renamedRow = page.getByRole('row', { name: new RegExp(renamed) });
      await renamedRow.getByRole('button', { name: text(lng, 'common.rowActions.deleteRecord', { name: renamed }) }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByRole('heading', { name: generic(lng, 'delete_title') }).isVisible()).toBe(true);
      expect(await dialog.getByText(generic(lng, 'delete_confirm', { name: renamed })).isVisible()).toBe(true);
      await dialog.getByRole('button', { name: text(lng, 'common.yes'), exact: true }).click();
      await expect.poll(() => toast(page, generic(lng, 'deleted')).isVisible()).toBe(true);
      await expect.poll(() => renamedRow.count()).toBe(0);
      expect((await apiClient(page).get(`/sponsors/${id}`)).status).toBe(404);
    });
  });

  it("renders an application's own cell, registered from src/extensions: the rating as stars", async () => {
    await withScreenshotOnFailure(page, 'sponsor-rating', async () => {
      await page.goto(`${server.url}/dashboard`);
      await switchLanguage(page, 'en');
      const created = await apiClient(page).post('/sponsors', { name: 'Rated Partner Bhd', tier: 'bronze', rating: 4 });
      expect(created.status).toBe(201);
      await page.goto(`${server.url}/manage-sponsor`);
      const stars = page
        .getByRole('row', { name: /Rated Partner Bhd/ })
        .getByRole('img', { name: text('en', 'common.cells.rating', { value: '4', max: '5' }) });
      await expect.poll(() => stars.isVisible()).toBe(true);
      expect(await stars.textContent()).toBe('★★★★☆');
      expect((await apiClient(page).delete(`/sponsors/${created.body.data.id}`)).status).toBe(204);
    });
  });
});
