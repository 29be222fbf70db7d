import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildFormSchema } from '../../src/engine/form/form-schema.js';
import { clientEntities, entitySources, FakeApi, renderEntityRoutes } from './entity-harness.js';

const entities = clientEntities(entitySources(['jury']));

describe("a juror's round in the create form", { timeout: 30_000 }, () => {
  it('offers each round of the schema range as an option, only for choice widgets on small integer ranges', () => {
    const jury = entities[0]!;
    const { schema } = buildFormSchema(jury, 'create');
    expect((schema.properties!.round as { enum?: number[] }).enum).toEqual([1, 2]);
    // A field without a choice widget keeps its schema.
    expect((schema.properties!.name as { enum?: unknown }).enum).toBeUndefined();
  });

  it("reads 'Babak 1' / 'Babak 2' in Indonesian and sends the chosen round", async () => {
    const api = new FakeApi(entities);
    const { user } = await renderEntityRoutes(api, '/create-jury', 'id');
    const second = await screen.findByRole('radio', { name: 'Babak 2' });
    expect(screen.getByRole('radio', { name: 'Babak 1' })).toBeTruthy();
    await user.click(second);
    await user.type(screen.getByLabelText(/^Nama/), 'Siti Rahma');
    await user.type(screen.getByLabelText(/^Email/), 'siti@juri.id');
    await user.click(screen.getByRole('button', { name: 'Daftarkan Juri' }));
    await waitFor(() => expect(api.callsTo('POST', '/juries')).toHaveLength(1));
    expect(api.callsTo('POST', '/juries')[0]!.body).toMatchObject({ name: 'Siti Rahma', email: 'siti@juri.id', round: 2 });
  });

  it("reads 'Pusingan 1' / 'Pusingan 2' in Malay", async () => {
    await renderEntityRoutes(new FakeApi(entities), '/create-jury', 'ms');
    expect(await screen.findByRole('radio', { name: 'Pusingan 1' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Pusingan 2' })).toBeTruthy();
  });
});
