import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientEntity } from '../../src/shared/descriptor/types.js';
import { listFieldsOf, listUrl, readListParams } from '../../src/shared/list-request.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

type Row = Record<string, unknown> & { id: number };
type Page = { data: Row[]; meta: { total: number; last_page: number } };

/** `row` with only `fields` (and those of each relation in `related`), as a sparse answer should hold it. */
function picked(row: Row, fields: string[], related: Record<string, string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = row[field];
  for (const [name, names] of Object.entries(related)) {
    const value = row[name] as Record<string, unknown> | null;
    out[name] = value && Object.fromEntries(names.map((field) => [field, value[field]]));
  }
  return out;
}

// `fields` and `fields[<include>]` on lists (the list screen asks for the fields it shows), and the
// page statements built once per list shape (operations/list-templates.ts): a shape's later
// requests, with other filter and search values, must get exactly the rows a full build gives.
describe.each(testDatabaseKinds())('list fields and statement templates on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let contest: ClientEntity;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, { DEMO_DATA: 'true', LIST_CACHE_MB: '0' }));
    contest = ((await client.get('/api/meta/entities')).body.data as ClientEntity[]).find((entity) => entity.name === 'contest')!;
  });
  afterAll(async () => t?.close());

  const get = async (query: Record<string, string>) => {
    const res = await client.get(`/api/contests?${new URLSearchParams(query)}`);
    expect(res.status, JSON.stringify(query)).toBe(200);
    return res.body as Page;
  };

  it('answers only the fields asked for, with the id, the sort column and the foreign keys of the includes', async () => {
    const full = await get({ include: 'customer,category', sort: 'status', direction: 'desc' });
    const sparse = await get({
      include: 'customer,category',
      sort: 'status',
      direction: 'desc',
      fields: 'strategy',
      'fields[customer]': 'email',
      'fields[category]': 'name',
    });
    expect(full.data.length).toBeGreaterThan(0);
    expect(sparse.meta).toEqual(full.meta);
    expect(sparse.data).toEqual(
      full.data.map((row) => picked(row, ['id', 'customer_id', 'category_id', 'status', 'strategy'], { customer: ['id', 'email'], category: ['id', 'name'] })),
    );
    // Without includes, nothing but the id and the fields (and the default sort's column).
    const bare = await get({ fields: 'status,logo_url' });
    expect(Object.keys(bare.data[0]!).sort()).toEqual(['created_at', 'id', 'logo_url', 'status']);
    // A blank value is no value: every field.
    const blank = await get({ include: 'customer,category', sort: 'status', direction: 'desc', fields: '', 'fields[customer]': ' ' });
    expect(blank.data).toEqual(full.data);
  });

  it('is what the list screen asks for: the page it shows, smaller', async () => {
    const shown = listFieldsOf(contest)!;
    expect(shown.fields).toEqual(expect.arrayContaining(['strategy', 'status', 'customer_id', 'category_id', 'created_at']));
    expect(shown.fields).not.toContain('confidential_kpi');
    expect(shown.includeFields).toEqual({ category: ['name'], customer: ['name', 'email'] });
    const url = listUrl(contest, readListParams(contest, new URLSearchParams()));
    expect(url).toContain('fields%5Bcustomer%5D=name%2Cemail');
    const screen = await client.get(url);
    const full = await client.get('/api/contests?page=1&per_page=15&include=category,customer');
    expect(screen.status).toBe(200);
    expect(screen.body.data.map((row: Row) => row.id)).toEqual(full.body.data.map((row: Row) => row.id));
    expect(JSON.stringify(screen.body).length).toBeLessThan(JSON.stringify(full.body).length * 0.8);
  });

  it('refuses a field the record or the relation does not have, a relation it cannot include and an overlong list', async () => {
    const refused = async (query: Record<string, string>, message: RegExp) => {
      const res = await client.get(`/api/contests?${new URLSearchParams(query)}`);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message).toMatch(message);
    };
    await refused({ fields: 'strategy,password_hash' }, /Unknown field "password_hash" in fields/);
    await refused({ include: 'customer', 'fields[customer]': 'name,password' }, /Unknown field "password" in fields\[customer\]/);
    await refused({ 'fields[jury]': 'name' }, /Unknown include "jury" in fields\[jury\]/);
    await refused({ fields: 'x'.repeat(2001) }, /at most 2000 characters/);
    await refused({ 'fields[customer': 'name' }, /Unknown query parameter/);
  });

  it('answers every request of one list shape with the rows a full build gives, whatever its values', async () => {
    // Customers with contests, and words of their companies: one shape, many values.
    const all = await get({ per_page: '100', include: 'customer' });
    const customerIds = [...new Set(all.data.map((row) => row.customer_id as number))].slice(0, 6);
    expect(customerIds.length).toBeGreaterThan(2);
    const companies = [
      ...new Set(
        all.data.map((row) =>
          String((row.customer as { company?: string } | null)?.company ?? '')
            .split(' ')[0]!
            .toLowerCase(),
        ),
      ),
    ]
      .filter((word) => word.length > 2)
      .slice(0, 4);
    // The expected rows: every contest, filtered and sorted here.
    const every: Row[] = [];
    for (let page = 1; ; page++) {
      const part = await get({ per_page: '100', page: String(page), include: 'customer' });
      every.push(...part.data);
      if (page >= part.meta.last_page) break;
    }
    const byCreated = (a: Row, b: Row) => String(a.created_at).localeCompare(String(b.created_at)) || a.id - b.id;
    for (const customerId of customerIds) {
      const page = await get({ 'q[customer_id]': String(customerId), per_page: '5', include: 'customer,category', fields: 'status' });
      const expected = every.filter((row) => row.customer_id === customerId).sort(byCreated);
      expect(page.meta.total, `customer ${customerId}`).toBe(expected.length);
      expect(page.data.map((row) => row.id)).toEqual(expected.slice(0, 5).map((row) => row.id));
      expect(page.data.every((row) => (row.customer as { id: number }).id === customerId)).toBe(true);
    }
    for (const word of [...companies, 'no-such-company-zz', '100%_']) {
      const page = await get({ 'q[agency_name]': word, per_page: '5', sort: 'status', direction: 'desc', include: 'customer' });
      const expected = every
        .filter((row) =>
          String((row.customer as { company?: string } | null)?.company ?? '')
            .toLowerCase()
            .includes(word),
        )
        .sort((a, b) => String(b.status).localeCompare(String(a.status)) || b.id - a.id);
      expect(page.meta.total, `agency ${word}`).toBe(expected.length);
      expect(
        page.data.map((row) => row.id),
        `agency ${word}`,
      ).toEqual(expected.slice(0, 5).map((row) => row.id));
    }
    for (const status of ['approved', 'pending', 'rejected', 'submitted']) {
      const page = await get({ status, per_page: '3', include: 'category' });
      const expected = every.filter((row) => row.status === status).sort(byCreated);
      expect(page.meta.total, status).toBe(expected.length);
      expect(
        page.data.map((row) => row.id),
        status,
      ).toEqual(expected.slice(0, 3).map((row) => row.id));
    }
  });
});
