/** What a fake API answers for a request: a status and, optionally, a JSON body. */
export type FakeAnswer = { status: number; body?: unknown };
export type FakeHandler = (url: string, init: RequestInit) => FakeAnswer;

/**
 * A `fetch` for the app's HTTP client (`configureHttpClient({ fetch })`) that answers every request
 * with what `current()` (the test's handler of the moment) says, as JSON.
 */
export function fakeFetch(current: () => FakeHandler): typeof fetch {
  return (async (url: RequestInfo | URL, init?: RequestInit) => {
    const { status, body } = current()(String(url), init ?? {});
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  }) as typeof fetch;
}
