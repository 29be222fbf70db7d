import fs from 'node:fs';
import path from 'node:path';
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../src/app/i18n.js';
import '../../src/registry/client.js';
import { isEmptyFor } from '../../src/engine/cells/index.js';
import { registerExtension } from '../../src/engine/registry/index.js';
import { RatingStarsCell } from '../../src/features/judging/client/rating-stars-cell.js';
import { judgingNames } from '../../src/features/judging/index.js';
import { loadEntities, mergeExtensionNames, SHIPPED_NAMES, toClientEntity } from '../../src/shared/descriptor/index.js';
import { FakeApi, renderEntityRoutes } from './entity-harness.js';

const fixture = path.resolve('tests/fixtures/sponsor');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(fixture, file), 'utf8'));
// The fixture's labels over the shipped texts, as the server's LOCALES_DIR adds them.
beforeAll(async () => {
  await i18n.loadLanguages(['en', 'id', 'ms']);
  for (const language of ['en', 'id', 'ms']) i18n.addResourceBundle(language, 'common', read(`locales/${language}/sponsor.json`), true, true);
});

/** The sponsor fixture as the server gives it to an admin, its cells checked against the registered names. */
const sponsor = toClientEntity(
  loadEntities(
    [{ file: 'sponsor.json', descriptor: read('entities/sponsor.json'), schemaFile: 'sponsor.schema.json', schema: read('schemas/sponsor.schema.json') }],
    { names: mergeExtensionNames(SHIPPED_NAMES, judgingNames) },
  )[0]!,
  'admin',
);

function api(): FakeApi {
  const fake = new FakeApi([sponsor]);
  fake.seed('sponsors', [
    { name: 'Gold Star Bhd', tier: 'gold', rating: 4 },
    { name: 'Unrated Sdn Bhd', tier: 'silver', rating: null },
  ]);
  return fake;
}

describe("an application's own cell, registered from src/extensions", { timeout: 30_000 }, () => {
  it("renders in a list: a rating as stars named in the reader's language, an empty one as a dash", async () => {
    await renderEntityRoutes(api(), '/manage-sponsor');
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    const column = headers.indexOf('Rating');
    expect(column).toBeGreaterThan(0);
    const rated = within(table).getByRole('row', { name: /Gold Star Bhd/ });
    const stars = within(rated).getByRole('img', { name: '4 out of 5 stars' });
    expect(stars.textContent).toBe('★★★★☆');
    const unrated = within(table).getByRole('row', { name: /Unrated Sdn Bhd/ });
    expect(within(unrated).queryByRole('img', { name: /stars/ })).toBeNull();
    const ratingCell = unrated.children[column] as HTMLElement;
    expect(within(ratingCell).getByLabelText('Not provided').textContent).toBe('—');
  });

  it('speaks Malay and Indonesian', async () => {
    const { unmount } = await renderEntityRoutes(api(), '/manage-sponsor', 'ms');
    expect(await screen.findByRole('img', { name: '4 daripada 5 bintang' })).toBeTruthy();
    unmount();
    await renderEntityRoutes(api(), '/manage-sponsor', 'id');
    expect(await screen.findByRole('img', { name: '4 dari 5 bintang' })).toBeTruthy();
  });

  it('cannot be replaced by another part under its name, and registering it again is harmless', () => {
    expect(() => registerExtension({ cells: { 'rating-stars': () => null } })).toThrow('The cell "rating-stars" is registered twice.');
    expect(() => registerExtension({ cells: { text: RatingStarsCell } })).toThrow('The cell "text" is registered twice.');
    expect(() => registerExtension({ cells: { 'rating-stars': RatingStarsCell } })).not.toThrow();
    expect(isEmptyFor('rating-stars', 9)).toBe(true);
    expect(isEmptyFor('rating-stars', 0)).toBe(false);
  });
});
