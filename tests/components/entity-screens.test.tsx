import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configureHttpClient } from '../../src/engine/data/http-client.js';
import { prefetchFirstList, setNextPagePrefetch } from '../../src/engine/routes/entity-routes.js';
import { clientEntities, FakeApi, renderEntityRoutes } from './entity-harness.js';

const entities = clientEntities();

function apiWith(categories = 2, companies = 0): FakeApi {
  const api = new FakeApi(entities);
  api.seed(
    'categories',
    Array.from({ length: categories }, (_, i) => ({
      name: i === 0 ? 'Film' : `Category ${i + 1}`,
      description: i === 0 ? 'Moving pictures of every length and kind, for cinema and online.' : 'Another category of work',
      slug: i === 0 ? 'film' : `category-${i + 1}`,
      status: i === 0 ? 'active' : 'inactive',
    })),
  );
  api.seed(
    'companies',
    Array.from({ length: companies }, (_, i) => ({ name: `Company ${String(i + 1).padStart(2, '0')}`, is_active: i % 2 === 0 })),
  );
  return api;
}

const lastListQuery = (api: FakeApi, endpoint: string) =>
  api
    .callsTo('GET', `/${endpoint}`)
    .filter((c) => c.path === `/${endpoint}`)
    .at(-1)!.query;

describe('the list screen', { timeout: 30_000 }, () => {
  it('shows the descriptor columns, cells, breadcrumbs and the create button', async () => {
    await renderEntityRoutes(apiWith(), '/manage-category');
    expect(await screen.findByRole('heading', { name: 'Category List' })).toBeTruthy();
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['', 'Category Name', 'Description', 'Slug', 'Status', 'Created', 'Updated', 'Actions']);
    const film = within(table).getByRole('row', { name: /Film/ });
    expect(within(film).getByText('Active')).toBeTruthy();
    expect(within(film).getAllByText('January 5, 2025').length).toBe(1);
    expect(within(film).getByTitle(/Moving pictures of every length and kind, for cinema and online\./).textContent).toMatch(/…$/);
    expect(within(film).getByRole('link', { name: 'Edit Film' }).getAttribute('href')).toBe('/manage-category/edit/1');
    expect(within(film).queryByRole('link', { name: /View details/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Create Category' }).getAttribute('href')).toBe('/create-category');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Manage Category').getAttribute('aria-current')).toBe('page');
    await waitFor(() => expect(document.title).toMatch(/^Manage Category/), { timeout: 10_000 });
  });

  it("says 'No categories found.' when there are none", async () => {
    await renderEntityRoutes(apiWith(0), '/manage-category');
    expect(await screen.findByText('No categories found.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it("says 'Error loading categories: …' when the list fails", async () => {
    const api = apiWith();
    api.override = (call) =>
      call.path === '/categories' ? { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'Database is resting' } } : undefined;
    await renderEntityRoutes(api, '/manage-category');
    expect(await screen.findByText('Error loading categories: An error occurred')).toBeTruthy();
  });

  it('pages through companies with page and size in the URL', async () => {
    const api = apiWith(0, 25);
    const { user, router } = await renderEntityRoutes(api, '/manage-company');
    expect(await screen.findByText('Showing 1 to 10 of 25')).toBeTruthy();
    expect(lastListQuery(api, 'companies').get('per_page')).toBe('10');
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 11 to 20 of 25')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    expect(lastListQuery(api, 'companies').get('page')).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Showing 21 to 25 of 25')).toBeTruthy();
    expect(screen.getByRole('row', { name: /Company 25/ })).toBeTruthy();
  });

  it("renders a page fetched ahead in 'Next''s own click, not as a later transition", async () => {
    setNextPagePrefetch(true);
    try {
      const api = apiWith(0, 25);
      const { router } = await renderEntityRoutes(api, '/manage-company');
      expect(await screen.findByText('Showing 1 to 10 of 25')).toBeTruthy();
      // The list fetches page 2 ahead once page 1 is shown.
      await waitFor(() => expect(api.callsTo('GET', '/companies').some((call) => call.query.get('page') === '2')).toBe(true));
      await waitFor(() => expect((screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement).disabled).toBe(false));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const firstRow = screen.getAllByRole('row')[1];
      // A plain click, outside act(): the new rows must be in the document when it returns (inside
      // descendant <Routes> React Router's setSearchParams drops flushSync; this failed then).
      (screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement).click();
      expect(router.state.location.search).toBe('?page=2');
      expect(screen.getByText('Showing 11 to 20 of 25')).toBeTruthy();
      // The rows are updated in place, not taken down and built again (keyed by place, not record).
      expect(screen.getByRole('row', { name: /Company 11/ })).toBe(firstRow);
    } finally {
      setNextPagePrefetch(false);
    }
  });

  it("starts the page after the first list's with the app, before that list is shown, and only when there is one", async () => {
    const pagesAsked = async (companies: number) => {
      const api = apiWith(0, companies);
      configureHttpClient({ fetch: api.fetch as typeof fetch, getAccessToken: () => 'test-token', onUnauthorized: () => undefined });
      const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
      await prefetchFirstList(client, '/manage-company', '');
      // The next page is started, not waited for.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return api
        .callsTo('GET', '/companies')
        .filter((call) => call.path === '/companies')
        .map((call) => call.query.get('page') ?? '1');
    };
    setNextPagePrefetch(true);
    try {
      expect(await pagesAsked(25)).toEqual(['1', '2']);
      expect(await pagesAsked(5)).toEqual(['1']);
    } finally {
      setNextPagePrefetch(false);
    }
    // Lists that do not fetch ahead (the engine's default) ask for the page shown only.
    expect(await pagesAsked(25)).toEqual(['1']);
  });

  it('reads the page size from the size parameter', async () => {
    const api = apiWith(0, 25);
    await renderEntityRoutes(api, '/manage-company?size=5&page=2');
    expect(await screen.findByText('Showing 6 to 10 of 25')).toBeTruthy();
    expect(lastListQuery(api, 'companies').get('per_page')).toBe('5');
  });

  it('sorts by a sortable column, ascending then descending', async () => {
    const api = apiWith(0, 3);
    const { user, router } = await renderEntityRoutes(api, '/manage-company?page=2');
    await screen.findByRole('table');
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(screen.getByRole('columnheader', { name: /Active/ })).getByRole('button'));
    await waitFor(() => expect(lastListQuery(api, 'companies').get('sort')).toBe('is_active'));
    expect(router.state.location.search).toBe('?sort=is_active&direction=asc');
    await user.click(within(screen.getByRole('columnheader', { name: /Active/ })).getByRole('button'));
    await waitFor(() => expect(lastListQuery(api, 'companies').get('direction')).toBe('desc'));
    expect(screen.getByRole('columnheader', { name: /Active/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('searches and filters through the URL, back on page 1', async () => {
    const api = apiWith(0, 25);
    const { user, router } = await renderEntityRoutes(api, '/manage-company?page=2');
    await screen.findByText('Showing 11 to 20 of 25');
    await user.type(screen.getByRole('searchbox', { name: 'Search the list' }), 'Company 1');
    await waitFor(() => expect(lastListQuery(api, 'companies').get('search')).toBe('Company 1'));
    expect(router.state.location.search).toBe('?search=Company+1');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(lastListQuery(api, 'companies').get('status')).toBe('inactive'));
    expect(lastListQuery(api, 'companies').get('page')).toBe('1');
  });

  it('deletes through the confirm dialog: No keeps the row, Yes deletes it and refreshes the list', async () => {
    const api = apiWith();
    const { user } = await renderEntityRoutes(api, '/manage-category');
    await user.click(await screen.findByRole('button', { name: 'Delete Film' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete category "Film"?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('DELETE', '/categories')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Film' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Category deleted successfully!')).toBeTruthy();
    expect(api.callsTo('DELETE', '/categories/1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /Film/ })).toBeNull());
    expect(screen.getByRole('row', { name: /Category 2/ })).toBeTruthy();
  });

  it("toasts the server's reason when a delete is refused, worded from its key, entity and count", async () => {
    const api = apiWith();
    const inUse = { path: '', keyword: 'inUse', messageKey: 'errors.inUse', params: { entity: 'grade', count: 3 } };
    api.override = (call) =>
      call.method === 'DELETE'
        ? { status: 409, body: { statusCode: 409, code: 'CONFLICT', message: 'This contest is still used by 3 grades.', errors: [inUse] } }
        : undefined;
    const { user } = await renderEntityRoutes(api, '/manage-category');
    await user.click(await screen.findByRole('button', { name: 'Delete Film' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('This record is still used by 3 grades; it cannot be deleted.')).toBeTruthy();
    expect(screen.getByRole('row', { name: /Film/ })).toBeTruthy();
  });
});

describe('the create and edit screens', { timeout: 30_000 }, () => {
  it("shows 'Invalid category ID' for a zero or malformed id without asking the server", async () => {
    const api = apiWith();
    await renderEntityRoutes(api, '/manage-category/edit/0');
    expect(await screen.findByText('Invalid category ID')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Category List' }).getAttribute('href')).toBe('/manage-category');
    expect(api.calls.filter((call) => call.path.startsWith('/categories'))).toHaveLength(0);
  });

  it("shows 'Company not found.' and 'Error loading company: …'", async () => {
    const api = apiWith(0, 1);
    await renderEntityRoutes(api, '/manage-company/edit/99');
    expect(await screen.findByText('Company not found.')).toBeTruthy();
  });

  it("shows 'Error loading category: …' with the way back", async () => {
    const api = apiWith();
    api.override = (call) =>
      call.path === '/categories/1' ? { status: 503, body: { statusCode: 503, code: 'UNAVAILABLE', message: 'Try again soon' } } : undefined;
    await renderEntityRoutes(api, '/manage-category/edit/1');
    expect(await screen.findByText('Error loading category: The service is unavailable for a moment. Please try again shortly.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Category List' })).toBeTruthy();
  });

  it('saves an edit with If-Match, toasts, and returns to the refreshed list', async () => {
    const api = apiWith();
    const { user, router } = await renderEntityRoutes(api, '/manage-category/edit/1');
    const name = await screen.findByLabelText(/^Name/);
    expect((name as HTMLInputElement).value).toBe('Film');
    await user.clear(name);
    await user.type(name, 'Film & Video');
    await user.click(screen.getByRole('button', { name: 'Update Category' }));
    expect(await screen.findByText('Category updated successfully!')).toBeTruthy();
    const put = api.callsTo('PUT', '/categories/1')[0]!;
    expect(put.body).toEqual({ name: 'Film & Video', description: 'Moving pictures of every length and kind, for cinema and online.', status: 'active' });
    expect(put.headers['if-match']).toBe(`W/"1-${Date.parse('2025-01-06T11:30:00.000Z')}"`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-category'));
    expect(await screen.findByRole('row', { name: /Film & Video/ })).toBeTruthy();
  });

  it('offers to reload when someone else saved the record first', async () => {
    const api = apiWith();
    let stale = true;
    api.override = (call) => {
      if (call.method === 'PUT' && stale) {
        stale = false;
        api.rows.get('categories')![0]!.name = 'Film (renamed elsewhere)';
        return { status: 409, body: { statusCode: 409, code: 'CONFLICT', message: 'The record was changed by someone else' } };
      }
      return undefined;
    };
    const { user } = await renderEntityRoutes(api, '/manage-category/edit/1');
    await user.type(await screen.findByLabelText(/^Name/), ' mine');
    await user.click(screen.getByRole('button', { name: 'Update Category' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Someone else changed "Film"/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Film (renamed elsewhere)'));
  });

  it('puts 422 field errors under their fields without a toast', async () => {
    const api = apiWith();
    api.override = (call) =>
      call.method === 'POST'
        ? {
            status: 422,
            body: {
              statusCode: 422,
              code: 'VALIDATION',
              message: 'Validation failed',
              errors: [{ path: 'name', keyword: 'unique', messageKey: 'validation.unique', params: {} }],
            },
          }
        : undefined;
    const { user } = await renderEntityRoutes(api, '/create-category');
    await user.type(await screen.findByLabelText(/^Name/), 'Film');
    await user.type(screen.getByLabelText(/^Description/), 'Moving pictures of all kinds');
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    expect(await screen.findByText('This value is already in use')).toBeTruthy();
    expect(screen.queryByText('Validation failed')).toBeNull();
  });

  it('creates, toasts and returns to the list', async () => {
    const api = apiWith(0, 0);
    const { user, router } = await renderEntityRoutes(api, '/create-company');
    await user.type(await screen.findByLabelText(/^Name/), 'Acme Advertising');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('Company created successfully!')).toBeTruthy();
    expect(api.callsTo('POST', '/companies')[0]!.body).toEqual({ name: 'Acme Advertising' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-company'));
    expect(await screen.findByRole('row', { name: /Acme Advertising/ })).toBeTruthy();
  });

  it('asks before leaving a changed form: Stay keeps it, Leave goes', async () => {
    const api = apiWith();
    const { user, router } = await renderEntityRoutes(api, '/create-category');
    await user.type(await screen.findByLabelText(/^Name/), 'Half-typed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Leave this page?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/create-category');
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Half-typed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-category'));
  });

  it('leaves an unchanged form without asking', async () => {
    const { user, router } = await renderEntityRoutes(apiWith(), '/create-category');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-category'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the detail screen', { timeout: 30_000 }, () => {
  it('shows the sections of the company descriptor with Not provided for empty values', async () => {
    const api = apiWith(0, 0);
    api.seed('companies', [{ name: 'Acme Advertising', is_active: true, updated_at: null }]);
    await renderEntityRoutes(api, '/manage-company/1');
    expect(await screen.findByRole('heading', { name: 'Acme Advertising', level: 1 })).toBeTruthy();
    const basic = screen.getByRole('region', { name: 'Basic Information' });
    expect(within(basic).getAllByText('Active')).toHaveLength(2);
    const times = screen.getByRole('region', { name: 'Timestamps' });
    expect(within(times).getByText('Not provided')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Edit/ }).getAttribute('href')).toBe('/manage-company/edit/1');
  });

  it('renders the fallback for a path no descriptor owns', async () => {
    await renderEntityRoutes(apiWith(), '/manage-nothing');
    expect(await screen.findByText('No such page')).toBeTruthy();
  });
});
