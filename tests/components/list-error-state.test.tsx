import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../src/app/i18n.js';
import { clientEntities, entitySources, FakeApi, type Reply, renderEntityRoutes } from './entity-harness.js';

const entities = clientEntities(entitySources(['category', 'company', 'customer', 'campaign', 'contest', 'edition']));

/** Renders `path` with every list call to `endpoint` failing with `reply`. */
async function failingList(path: string, endpoint: string, reply: Reply, language: Language = 'en') {
  const api = new FakeApi(entities);
  api.override = (call) => (call.method === 'GET' && call.path === `/${endpoint}` ? reply : undefined);
  await renderEntityRoutes(api, path, language);
  return screen.findByRole('alert');
}

const serverError = { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'Database is resting' } };

describe('the list error state', { timeout: 30_000 }, () => {
  it("shows the contest list's error as the heading 'Error loading contests' with the sentence for its code under it, never the server's English", async () => {
    const alert = await failingList('/manage-contest', 'contests', serverError);
    expect(within(alert).getByRole('heading', { name: 'Error loading contests' })).toBeTruthy();
    expect(within(alert).getByText('Something went wrong. Please try again.')).toBeTruthy();
    expect(alert.textContent).not.toContain('Database is resting');
    expect(alert.textContent).not.toContain('Error loading contests:');
  });

  it('says what an unavailable server means in the chosen language', async () => {
    const reply = { status: 503, body: { statusCode: 503, code: 'UNAVAILABLE', message: 'The database is unavailable.' } };
    const alert = await failingList('/manage-contest', 'contests', reply, 'id');
    expect(within(alert).getByText('Layanan sedang tidak tersedia. Silakan coba lagi sebentar lagi.')).toBeTruthy();
    expect(alert.textContent).not.toContain('database');
  });

  it("says 'Something went wrong. Please try again.' under the heading when the server gave no message", async () => {
    const alert = await failingList('/manage-contest', 'contests', { status: 500 });
    expect(within(alert).getByRole('heading', { name: 'Error loading contests' })).toBeTruthy();
    expect(within(alert).getByText('Something went wrong. Please try again.')).toBeTruthy();
  });

  it.each([
    ['id', 'Gagal memuat karya', 'Terjadi kesalahan. Silakan coba lagi.'],
    ['ms', 'Ralat memuatkan penyertaan', 'Ada sesuatu yang tidak kena. Sila cuba lagi.'],
  ] as const)('says it in %s', async (language, heading, fallback) => {
    const alert = await failingList('/manage-contest', 'contests', { status: 500 }, language);
    expect(within(alert).getByRole('heading', { name: heading })).toBeTruthy();
    expect(within(alert).getByText(fallback)).toBeTruthy();
  });

  it("keeps the one-line 'Error loading companies: …' of a list without an error heading", async () => {
    const alert = await failingList('/manage-company', 'companies', serverError);
    expect(alert.textContent).toBe('Error loading companies: An error occurred');
    expect(within(alert).queryByRole('heading')).toBeNull();
  });
});
