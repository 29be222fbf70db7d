import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const keysOf = (body: any) => Object.fromEntries((body.errors ?? []).map((e: any) => [e.path, e.messageKey]));

describe.each(testDatabaseKinds())('categories and companies as the spec describes them, on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
  });
  afterAll(async () => t?.close());

  describe('categories', () => {
    it('gives the validation message keys for name, description and status', async () => {
      const blank = await client.post('/api/categories', { name: '  ', description: '', status: 'archived' });
      expect(blank.status).toBe(422);
      expect(keysOf(blank.body)).toEqual({
        name: 'validation.name.required',
        description: 'validation.description.required',
        status: 'validation.status.enum',
      });
      const short = await client.post('/api/categories', { name: 'A', description: 'Too short' });
      expect(keysOf(short.body)).toEqual({ name: 'validation.name.min', description: 'validation.description.min' });
      expect(short.body.errors.find((e: any) => e.path === 'name').params).toEqual({ limit: 2 });
      const long = await client.post('/api/categories', { name: 'N'.repeat(101), description: 'D'.repeat(501), status: 'active' });
      expect(keysOf(long.body)).toEqual({ name: 'validation.name.max', description: 'validation.description.max' });
      const missing = await client.put('/api/categories/1', {});
      expect(missing.status === 404 || missing.status === 422).toBe(true);
    });

    it('derives a unique slug from the name, defaults status to active, and keeps it on edit', async () => {
      const body = { name: 'Best Use of Social!', description: 'Campaigns that used social media best.' };
      const first = await client.post('/api/categories', body);
      const second = await client.post('/api/categories', body);
      const third = await client.post('/api/categories', { ...body, name: 'best use of social' });
      expect([first.body.data.slug, second.body.data.slug, third.body.data.slug]).toEqual([
        'best-use-of-social',
        'best-use-of-social-2',
        'best-use-of-social-3',
      ]);
      expect(first.body.data.status).toBe('active');
      const same = await client.put(`/api/categories/${second.body.data.id}`, { ...body, status: 'inactive' });
      expect(same.body.data).toMatchObject({ slug: 'best-use-of-social-2', status: 'inactive' });
      const renamed = await client.put(`/api/categories/${second.body.data.id}`, { ...body, name: 'Best Film Craft', status: 'inactive' });
      expect(renamed.body.data.slug).toBe('best-film-craft');
      const sent = await client.post('/api/categories', { ...body, slug: 'chosen-by-me' });
      expect(sent.status).toBe(422);
      expect(keysOf(sent.body)).toEqual({ slug: 'validation.additionalProperties' });
    });

    it('answers an invalid or zero id with 400 Invalid category ID, on update too', async () => {
      for (const id of ['0', 'abc']) {
        const res = await client.put(`/api/categories/${id}`, { name: 'Valid name', description: 'A valid description', status: 'active' });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('Invalid category ID');
      }
    });

    it('lists with the server page size and the spec columns', async () => {
      const res = await client.get('/api/categories?page=1');
      expect(res.status).toBe(200);
      expect(res.body.meta.per_page).toBe(10);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(expect.arrayContaining(['created_at', 'description', 'id', 'name', 'slug', 'status', 'updated_at']));
    });
  });

  describe('companies', () => {
    it('creates from a name alone, active by default, with the company name messages', async () => {
      const empty = await client.post('/api/companies', { name: '' });
      expect(keysOf(empty.body)).toEqual({ name: 'validation.company_name.required' });
      const short = await client.post('/api/companies', { name: 'X' });
      expect(keysOf(short.body)).toEqual({ name: 'validation.company_name.min' });
      const long = await client.post('/api/companies', { name: 'X'.repeat(101) });
      expect(keysOf(long.body)).toEqual({ name: 'validation.company_name.max' });
      const onlyName = await client.post('/api/companies', { name: 'Rimba Creative', is_active: false });
      expect(onlyName.status).toBe(422);
      const created = await client.post('/api/companies', { name: 'Rimba Creative' });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ name: 'Rimba Creative', is_active: true });
    });

    it('edits name and the active switch, refusing a non-boolean is_active', async () => {
      const created = await client.post('/api/companies', { name: 'Nusantara Media' });
      const id = created.body.data.id;
      const res = await client.put(`/api/companies/${id}`, { name: 'Nusantara Media Group', is_active: false });
      expect(res.body.data).toMatchObject({ name: 'Nusantara Media Group', is_active: false });
      const bad = await client.put(`/api/companies/${id}`, { name: 'Nusantara Media Group', is_active: 'false' });
      expect(bad.status).toBe(422);
      expect(keysOf(bad.body)).toEqual({ is_active: 'validation.boolean' });
      const invalid = await client.get('/api/companies/-3');
      expect(invalid.body.message).toBe('Invalid company ID');
    });

    it('accepts the spec list query (page, per_page, search, status, sort, direction) and refuses q[email]', async () => {
      for (const name of ['Alpha Works', 'Beta Studio', 'Gamma Works']) await client.post('/api/companies', { name });
      const gamma = (await client.get('/api/companies?search=gamma')).body.data[0];
      await client.put(`/api/companies/${gamma.id}`, { name: 'Gamma Works', is_active: false });
      const works = await client.get('/api/companies?page=1&per_page=10&search=WORKS&sort=name&direction=desc');
      expect(works.body.data.map((c: any) => c.name)).toEqual(['Gamma Works', 'Alpha Works']);
      const active = await client.get('/api/companies?search=works&status=active');
      expect(active.body.data.map((c: any) => c.name)).toEqual(['Alpha Works']);
      const inactive = await client.get('/api/companies?search=works&status=inactive');
      expect(inactive.body.data.map((c: any) => c.name)).toEqual(['Gamma Works']);
      const badStatus = await client.get('/api/companies?status=maybe');
      expect(badStatus.status).toBe(400);
      const email = await client.get('/api/companies?q[email]=a@b.co');
      expect(email.status).toBe(400);
      expect(email.body.message).toBe('Unknown query parameter: q[email].');
    });

    it('deletes with 204 after which the record is gone', async () => {
      const created = await client.post('/api/companies', { name: 'Short Lived Sdn Bhd' });
      expect((await client.delete(`/api/companies/${created.body.data.id}`)).status).toBe(204);
      expect((await client.get(`/api/companies/${created.body.data.id}`)).body.message).toBe('Company not found.');
    });
  });
});
