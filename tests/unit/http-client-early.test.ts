import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient, http, startEarlyFirstList, startEarlyGet } from '../../src/engine/data/http-client.js';

// An answer the boot script started early stands in for the app's first GET of the same URL, once;
// after a write it must not (the first screen's list, opened and left before the app asked for it,
// would show the rows from before the write).
describe('answers started early', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('stand in for the same GET once, and for none after a write', async () => {
    let gets = 0;
    const fetchStub = vi.fn(async (_url: string, init?: RequestInit) => {
      const data = init?.method === 'POST' ? 'saved' : `GET ${++gets}`;
      return new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetchStub);
    configureHttpClient({ getAccessToken: async () => 't', fetch: fetchStub as unknown as typeof fetch });
    const get = async () => ((await http.get('/things')) as { data: string }).data;

    void startEarlyGet('/api/things', 't');
    // The early answer (the first GET), then a request of its own.
    expect(await get()).toBe('GET 1');
    expect(await get()).toBe('GET 2');

    void startEarlyGet('/api/things', 't');
    await http.post('/things', {});
    // Not the early answer (GET 3, from before the write): a new request.
    expect(await get()).toBe('GET 4');
  });

  it('keep two first-list answers at once (the page shown and the one after it), each standing in for its own GET', async () => {
    const asked: string[] = [];
    const fetchStub = vi.fn(async (url: string) => {
      asked.push(url);
      const page = new URL(url, 'http://localhost').searchParams.get('search')?.match(/page=(\d+)/)?.[1] ?? '1';
      // The first page answers after the second: both are still to say their URLs when the app asks.
      await new Promise((resolve) => setTimeout(resolve, page === '1' ? 40 : 10));
      return new Response(JSON.stringify({ data: `page ${page}` }), {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-list-url': `/api/things?page=${page}` },
      });
    });
    vi.stubGlobal('fetch', fetchStub);
    configureHttpClient({ getAccessToken: async () => 't', fetch: fetchStub as unknown as typeof fetch });

    startEarlyFirstList('/things', '', 't');
    startEarlyFirstList('/things', '?page=2', 't');
    const [first, second] = await Promise.all([http.get('/things', { query: { page: 1 } }), http.get('/things', { query: { page: 2 } })]);
    expect([(first as { data: string }).data, (second as { data: string }).data]).toEqual(['page 1', 'page 2']);
    // Only the two early requests: neither GET was sent again.
    expect(asked).toHaveLength(2);
    expect(asked.every((url) => url.startsWith('/api/meta/first-list'))).toBe(true);
  });
});
