import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient, http, startEarlyGet } from '../../src/engine/data/http-client.js';

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
});
