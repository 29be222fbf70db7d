import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Call, clientEntities, entitySources, FakeApi, renderEntityRoutes } from './entity-harness.js';

const entities = clientEntities(entitySources(['category', 'company', 'customer', 'campaign', 'contest', 'edition']));

const CUSTOMERS = [
  { name: 'Ayu Lestari', email: 'ayu@studio.id', company: 'Studio Satu' },
  { name: 'Budi Santoso', email: 'budi@agency.id', company: 'Agency Dua' },
  { name: null, email: 'nameless@example.com', company: null },
];

/** A fake API whose customer list honours `search` (name or e-mail, any case), as the server does. */
function apiWithCustomers(): FakeApi {
  const api = new FakeApi(entities);
  api.seed('customers', CUSTOMERS);
  api.override = (call: Call) => {
    if (call.method !== 'GET' || call.path !== '/customers' || !call.query.get('search')) return undefined;
    const needle = call.query.get('search')!.toLowerCase();
    const data = api.rows.get('customers')!.filter((row) => [row.name, row.email].some((v) => typeof v === 'string' && v.toLowerCase().includes(needle)));
    return { status: 200, body: { data, meta: { current_page: 1, last_page: 1, total: data.length, per_page: 20 }, links: {} } };
  };
  return api;
}

const listQuery = (api: FakeApi, endpoint: string) => api.callsTo('GET', `/${endpoint}`).filter((c) => c.path === `/${endpoint}`);
const customerFilter = () => screen.getByRole('button', { name: /^Choose by name: / });

describe('a reference filter (the contests list picks a customer)', { timeout: 30_000 }, () => {
  it("searches the customers on the server and sends the chosen one's id as the filter", async () => {
    const api = apiWithCustomers();
    const { user, router } = await renderEntityRoutes(api, '/manage-contest?page=2');
    await waitFor(() => expect(customerFilter().textContent).toContain('Select One'));
    await user.click(customerFilter());
    const search = await screen.findByPlaceholderText('Find option');
    await user.type(search, 'BUDI');
    await waitFor(() => expect(listQuery(api, 'customers').at(-1)!.query.get('search')).toBe('BUDI'));
    const request = listQuery(api, 'customers').at(-1)!.query;
    expect(Number(request.get('per_page'))).toBeLessThanOrEqual(100);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    // Name and id as the label, the e-mail under it.
    await user.click(screen.getByRole('option', { name: 'Budi Santoso (#2) budi@agency.id' }));
    expect(customerFilter().textContent).toContain('Budi Santoso (#2)');
    // Nothing is applied before 'Apply Filters'.
    expect(new URLSearchParams(router.state.location.search).get('q[customer_id]')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('q[customer_id]')).toBe('2'));
    expect(new URLSearchParams(router.state.location.search).get('page')).toBeNull();
    await waitFor(() => expect(listQuery(api, 'contests').at(-1)!.query.get('q[customer_id]')).toBe('2'));
    // The spec's call table: the contests call carries per_page=15, though the address has no size.
    expect(listQuery(api, 'contests').every((call) => call.query.get('per_page') === '15')).toBe(true);
    expect(new URLSearchParams(router.state.location.search).has('per_page')).toBe(false);
  });

  it("shows 'No data found' when no customer matches", async () => {
    const api = apiWithCustomers();
    const { user } = await renderEntityRoutes(api, '/manage-contest');
    await waitFor(() => expect(customerFilter()).toBeTruthy());
    await user.click(customerFilter());
    await user.type(await screen.findByPlaceholderText('Find option'), 'zzz');
    await screen.findByText('No data found');
  });

  it("shows the label of a customer id from the URL, and 'Reset Filters' clears it", async () => {
    const api = apiWithCustomers();
    const { user, router } = await renderEntityRoutes(api, '/manage-contest?q[customer_id]=1');
    await waitFor(() => expect(customerFilter().textContent).toContain('Ayu Lestari (#1)'));
    expect(api.callsTo('GET', '/customers/1')).toHaveLength(1);
    expect(listQuery(api, 'contests').at(-1)!.query.get('q[customer_id]')).toBe('1');
    await user.click(screen.getByRole('button', { name: 'Reset Filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(customerFilter().textContent).toContain('Select One'));
  });

  it('shows #id for a customer without a name, and clears the choice with the clear button', async () => {
    const api = apiWithCustomers();
    const { user, router } = await renderEntityRoutes(api, '/manage-contest?q[customer_id]=3');
    await waitFor(() => expect(customerFilter().textContent).toContain('#3'));
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('q[customer_id]')).toBeNull());
  });

  it('ignores a customer id in the URL that is not a positive integer', async () => {
    const api = apiWithCustomers();
    await renderEntityRoutes(api, '/manage-contest?q[customer_id]=-4');
    await waitFor(() => expect(listQuery(api, 'contests').length).toBeGreaterThan(0));
    expect(listQuery(api, 'contests').at(-1)!.query.get('q[customer_id]')).toBeNull();
    expect(customerFilter().textContent).toContain('Select One');
    expect(api.callsTo('GET', '/customers/')).toHaveLength(0);
  });

  it('takes a typed customer ID, labelled Customer ID, applied only when it is a positive integer', async () => {
    const api = apiWithCustomers();
    const { user, router } = await renderEntityRoutes(api, '/manage-contest');
    const field = await screen.findByRole('textbox', { name: 'Customer ID' });
    const apply = () => user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    for (const [text, message] of [
      ['0', 'Customer ID must be a positive whole number (1 or more).'],
      ['-3', 'Customer ID must be a positive whole number (1 or more).'],
      ['2a', 'Customer ID must be a whole number (digits only).'],
      ['12345678901', 'Customer ID has at most 10 digits.'],
      ['2147483648', 'Customer ID is at most 2,147,483,647.'],
    ] as const) {
      await user.clear(field);
      await user.type(field, text);
      await apply();
      expect((await screen.findByRole('alert')).textContent).toBe(message);
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(field);
      expect(new URLSearchParams(router.state.location.search).get('q[customer_id]')).toBeNull();
    }
    await user.clear(field);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(field, ' 02 ');
    await apply();
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('q[customer_id]')).toBe('2'));
    await waitFor(() => expect(listQuery(api, 'contests').at(-1)!.query.get('q[customer_id]')).toBe('2'));
    // The picker beside it shows whose ID it is.
    await waitFor(() => expect(customerFilter().textContent).toContain('Budi Santoso (#2)'));
  });

  it('puts the ID of a customer chosen by name in the Customer ID field', async () => {
    const api = apiWithCustomers();
    const { user } = await renderEntityRoutes(api, '/manage-contest');
    await waitFor(() => expect(customerFilter().textContent).toContain('Select One'));
    await user.click(customerFilter());
    await user.type(await screen.findByPlaceholderText('Find option'), 'ayu');
    await user.click(await screen.findByRole('option', { name: 'Ayu Lestari (#1) ayu@studio.id' }));
    expect((screen.getByRole('textbox', { name: 'Customer ID' }) as HTMLInputElement).value).toBe('1');
  });
});
