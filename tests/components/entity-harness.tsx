// Shared set-up of the engine's component tests (not a test file itself): the real descriptors
// loaded as the server loads them, a fake API behind the real HTTP client, and the app's providers.
import fs from 'node:fs';
import path from 'node:path';
import { Theme } from '@radix-ui/themes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, type RenderResult, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { DialogProvider } from '../../src/app/dialogs/dialog-provider.js';
import { i18n, type Language } from '../../src/app/i18n.js';
import { ToastProvider } from '../../src/app/toast-provider.js';
import { configureHttpClient } from '../../src/engine/data/http-client.js';
import { registeredNames } from '../../src/engine/registry/index.js';
import { EntityRoutes } from '../../src/engine/routes/entity-routes.js';
import { mergeExtensionNames, SHIPPED_NAMES } from '../../src/shared/descriptor/extension-names.js';
import { type ClientEntity, type EntitySource, loadEntities, toClientEntity } from '../../src/shared/descriptor/index.js';

// Screens load their chunks lazily; on a busy machine the first import takes more than a second.
configure({ asyncUtilTimeout: 8000 });

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** The descriptor and schema files of `names` as `loadEntities` reads them; `edit` may change them first. */
export function entitySources(names: string[], edit?: (source: { descriptor: any; schema: any }) => void): EntitySource[] {
  return names.map((name) => {
    const file = path.join(root, 'entities', `${name}.json`);
    const schemaFile = path.join(root, 'schemas', `${name}.schema.json`);
    const source = { descriptor: JSON.parse(fs.readFileSync(file, 'utf8')), schema: JSON.parse(fs.readFileSync(schemaFile, 'utf8')) };
    if (source.descriptor.name === name) edit?.(source);
    return { file, schemaFile, ...source };
  });
}

/** The real category and company descriptors as `GET /api/meta/entities` gives them to an admin (names checked against the registered client parts). */
export function clientEntities(sources: EntitySource[] = entitySources(['category', 'company'])): ClientEntity[] {
  return loadEntities(sources, { names: mergeExtensionNames(SHIPPED_NAMES, registeredNames()) }).map((entity) => toClientEntity(entity, 'admin'));
}

/** One recorded request to the fake API. */
export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

/** What a handler answers: a status and a JSON body (undefined for 204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * An in-memory API for the engine: meta, and list / read / create / update / delete per entity
 * (sorted by id, paged by `per_page`), with an `override` hook to answer a call differently
 * (a 422, a 409, a slow save).
 */
export class FakeApi {
  calls: Call[] = [];
  rows = new Map<string, Record<string, unknown>[]>();
  override?: (call: Call) => Reply | Promise<Reply> | undefined;
  private nextId = 1000;

  constructor(readonly entities: ClientEntity[]) {
    for (const entity of entities) this.rows.set(entity.endpoint, []);
  }

  /** Adds records to an endpoint (ids and timestamps filled in). */
  seed(endpoint: string, records: Record<string, unknown>[]): Record<string, unknown>[] {
    const list = this.rows.get(endpoint)!;
    const added = records.map((record, index) => ({
      id: list.length + index + 1,
      created_at: '2025-01-05T10:00:00.000Z',
      updated_at: '2025-01-06T11:30:00.000Z',
      ...record,
    }));
    list.push(...added);
    return added;
  }

  callsTo(method: string, pathPrefix: string): Call[] {
    return this.calls.filter((call) => call.method === method && call.path.startsWith(pathPrefix));
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://console.test');
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      headers,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    this.calls.push(call);
    const reply = (await this.override?.(call)) ?? this.answer(call);
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };

  private answer(call: Call): Reply {
    if (call.path === '/meta/entities') return { status: 200, body: { data: this.entities } };
    const [, endpoint, rawId] = call.path.split('/');
    const list = this.rows.get(endpoint ?? '');
    if (!list) return { status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'Not Found' } };
    if (rawId === undefined) {
      if (call.method === 'GET') {
        const perPage = Number(call.query.get('per_page') ?? 10);
        const page = Number(call.query.get('page') ?? 1);
        const lastPage = Math.max(1, Math.ceil(list.length / perPage));
        const data = list.slice((page - 1) * perPage, page * perPage);
        return {
          status: 200,
          body: { data, meta: { current_page: page, last_page: lastPage, total: list.length, per_page: perPage }, links: {} },
        };
      }
      const record = { id: (this.nextId += 1), created_at: new Date().toISOString(), updated_at: new Date().toISOString(), ...(call.body as object) };
      list.push(record);
      return { status: 201, body: { data: record } };
    }
    const index = list.findIndex((record) => String(record.id) === rawId);
    if (index < 0) return { status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'Not found' } };
    if (call.method === 'GET') return { status: 200, body: { data: list[index] } };
    if (call.method === 'DELETE') {
      list.splice(index, 1);
      return { status: 204 };
    }
    list[index] = { ...list[index], ...(call.body as object), updated_at: new Date().toISOString() };
    return { status: 200, body: { data: list[index] } };
  }
}

/** Renders `ui` inside the app's providers (Radix theme, i18n, query client, dialogs, the toast service and its container) at `path`. */
export async function renderWithApp(
  ui: ReactElement,
  { api, path: at = '/', language = 'en' }: { api: FakeApi; path?: string; language?: Language },
): Promise<RenderResult & { user: ReturnType<typeof userEvent.setup>; router: ReturnType<typeof createMemoryRouter> }> {
  await i18n.changeLanguage(language);
  configureHttpClient({ fetch: api.fetch as typeof fetch, getAccessToken: () => 'test-token', onUnauthorized: () => undefined });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [at] });
  const user = userEvent.setup();
  const result = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <Theme>
          <DialogProvider>
            <ToastProvider>
              <RouterProvider router={router} />
              <ToastContainer position="top-right" autoClose={4000} limit={3} />
            </ToastProvider>
          </DialogProvider>
        </Theme>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...result, user, router };
}

/** Renders the engine's routes at `path` against the fake API. */
export function renderEntityRoutes(api: FakeApi, at: string, language: Language = 'en') {
  return renderWithApp(<EntityRoutes fallback={<p>No such page</p>} />, { api, path: at, language });
}
