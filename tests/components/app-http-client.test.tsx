import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryDelay, shouldRetry } from '../../src/app/query-client.js';
import { ApiError, describeError } from '../../src/engine/data/api-error.js';
import { buildUrl, configureHttpClient, http, readXsrfCookie } from '../../src/engine/data/http-client.js';

type Call = { url: string; init: RequestInit };

function fakeFetch(status: number, body?: unknown, statusText = '') {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, statusText });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const headersOf = (call: Call) => call.init.headers as Record<string, string>;

afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: clears the XSRF cookie the client under test reads from document.cookie
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  configureHttpClient({ getAccessToken: () => null, onUnauthorized: () => undefined });
});

describe('http client', () => {
  it('builds /api paths with bracketed filters and joined includes, leaving out empty values', () => {
    expect(buildUrl('/contests', { page: 2, include: ['customer', 'category'], q: { agency_name: 'Acme', customer_id: '' }, sort: undefined })).toBe(
      '/api/contests?page=2&include=customer%2Ccategory&q%5Bagency_name%5D=Acme',
    );
    expect(buildUrl('categories')).toBe('/api/categories');
  });

  it('sends JSON with credentials and both token headers, and the XSRF header only on writes', async () => {
    const { fetch, calls } = fakeFetch(200, { data: { id: 1 } });
    // biome-ignore lint/suspicious/noDocumentCookie: sets the XSRF cookie as the server would; the client under test reads document.cookie
    document.cookie = 'XSRF-TOKEN=abc%3D123; path=/';
    configureHttpClient({ fetch, getAccessToken: async () => 'jwt-token' });
    await expect(http.get('/categories/1')).resolves.toEqual({ data: { id: 1 } });
    await http.post('/categories', { name: 'Design' });
    const [get, post] = calls;
    expect(get!.init.credentials).toBe('same-origin');
    expect(headersOf(get!).authorization).toBe('Bearer jwt-token');
    expect(headersOf(get!)['x-access-token']).toBe('jwt-token');
    expect(headersOf(get!)['x-xsrf-token']).toBeUndefined();
    expect(headersOf(post!)['x-xsrf-token']).toBe('abc=123');
    expect(headersOf(post!)['content-type']).toBe('application/json');
    expect(post!.init.body).toBe('{"name":"Design"}');
    expect(readXsrfCookie('a=1; XSRF-TOKEN=zz')).toBe('zz');
  });

  it('passes extra headers such as If-Match and returns undefined for 204', async () => {
    const { fetch, calls } = fakeFetch(204);
    configureHttpClient({ fetch });
    await expect(http.put('/categories/1', { name: 'x' }, { headers: { 'if-match': '"v2"' } })).resolves.toBeUndefined();
    expect(headersOf(calls[0]!)['if-match']).toBe('"v2"');
    expect(headersOf(calls[0]!).authorization).toBeUndefined();
  });

  it('throws ApiError with the server code, message and field errors', async () => {
    const errors = [{ path: 'name', keyword: 'minLength', messageKey: 'validation.name.min', params: { limit: 2 } }];
    const { fetch } = fakeFetch(422, { statusCode: 422, code: 'VALIDATION', message: 'Name too short', errors });
    configureHttpClient({ fetch });
    const error = await http.post('/categories', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION', message: 'Name too short', errors, isFallbackMessage: false });
  });

  it("falls back to the transport's message, then to the translated 'An error occurred'", async () => {
    configureHttpClient({ fetch: fakeFetch(502, '<html>bad gateway</html>', 'Bad Gateway').fetch });
    const gateway = (await http.get('/x').catch((caught: unknown) => caught)) as ApiError;
    expect(gateway).toMatchObject({ status: 502, code: 'INTERNAL', message: 'Bad Gateway' });

    configureHttpClient({ fetch: fakeFetch(500, '').fetch });
    const silent = (await http.get('/x').catch((caught: unknown) => caught)) as ApiError;
    expect(silent.message).toBe('An error occurred');
    expect(describeError(silent, (key) => `t(${key})`)).toBe('t(errors.generic)');

    configureHttpClient({ fetch: vi.fn().mockRejectedValue(new TypeError('Failed to fetch')) as unknown as typeof fetch });
    const offline = (await http.get('/x').catch((caught: unknown) => caught)) as ApiError;
    expect(offline).toMatchObject({ status: 0, code: 'NETWORK', message: 'Failed to fetch' });
  });

  it('hands a 401 to the app only when the request carried a token and did not opt out', async () => {
    const onUnauthorized = vi.fn();
    const body = { statusCode: 401, code: 'SESSION_REPLACED', message: 'Signed in elsewhere' };
    configureHttpClient({ fetch: fakeFetch(401, body).fetch, onUnauthorized, getAccessToken: () => null });
    await expect(http.get('/auth/me')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).not.toHaveBeenCalled();

    configureHttpClient({ getAccessToken: () => 'jwt' });
    await expect(http.post('/login', {}, { handleUnauthorized: false })).rejects.toMatchObject({ code: 'SESSION_REPLACED' });
    expect(onUnauthorized).not.toHaveBeenCalled();

    await expect(http.get('/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized.mock.calls[0]![0]).toMatchObject({ code: 'SESSION_REPLACED' });
  });
});

describe('query retry policy', () => {
  it('retries up to 3 times, never a 4xx answer', () => {
    const serverError = new ApiError({ status: 503, code: 'UNAVAILABLE' });
    const notFound = new ApiError({ status: 404, code: 'NOT_FOUND' });
    expect([0, 1, 2, 3].map((count) => shouldRetry(count, serverError))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, notFound)).toBe(false);
    expect(shouldRetry(0, new TypeError('offline'))).toBe(true);
  });

  it('backs off min(1000 * 2^n, 30000) ms', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
