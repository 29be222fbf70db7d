import { type ApiErrorBody, ERROR_CODES, type ErrorCode } from '../../shared/api-contract.js';
import { encodeQuery, type QueryParams } from '../../shared/list-request.js';
import { ApiError, codeForStatus } from './api-error.js';

export type { QueryParams, QueryScalar } from '../../shared/list-request.js';

/** Options of one request. */
export interface RequestOptions {
  query?: QueryParams;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * When false, a 401 is only thrown, not handed to `onUnauthorized` (sign-in, where a 401 means
   * wrong credentials, and token checks that handle their own failure). Default true.
   */
  handleUnauthorized?: boolean;
  /** `blob`: a successful answer is returned as a Blob (a file download) instead of parsed JSON. */
  responseType?: 'json' | 'blob';
}

/** What the app plugs into the client (tokens live in the app's token store). */
export interface HttpClientConfig {
  /** Base of every path; `/api`. */
  baseUrl: string;
  /** The current access token, refreshed first when it is about to expire; null when signed out. */
  getAccessToken: () => string | null | Promise<string | null>;
  /** Called once per 401 answer to a request that carried a token: clear tokens, go to `/logout`. */
  onUnauthorized: (error: ApiError) => void;
  /** The `fetch` to use (tests pass a fake). */
  fetch: typeof fetch;
}

const config: HttpClientConfig = {
  baseUrl: '/api',
  getAccessToken: () => null,
  onUnauthorized: () => undefined,
  fetch: (...args) => globalThis.fetch(...args),
};

/**
 * Plugs the app's token store and 401 handler into the one network door. Called once at start-up
 * by the app; tests call it with a fake `fetch`.
 */
export function configureHttpClient(next: Partial<HttpClientConfig>): void {
  Object.assign(config, next);
}

/** Builds `path?query` with bracketed keys for nested objects and comma-joined arrays. */
export function buildUrl(path: string, query?: QueryParams): string {
  const base = `${config.baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return base;
  const search = encodeQuery(query);
  return search ? `${base}?${search}` : base;
}

/** The `XSRF-TOKEN` cookie the server sets, echoed on writes (double-submit). */
export function readXsrfCookie(cookies: string = typeof document === 'undefined' ? '' : document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'XSRF-TOKEN') return decodeURIComponent(rest.join('='));
  }
  return null;
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const EARLY_KEY = '__awardsConsoleEarlyResponses';

/** How long a response started early (by the boot script) may stand in for the app's own request. */
const EARLY_MAX_AGE_MS = 15_000;

type EarlyResponses = Map<string, { token: string; at: number; response: Promise<Response> }>;

/**
 * GET answers started before the app loaded, by URL, each usable once, for one access token. On
 * the global object: the boot script is a bundle of its own (it must not wait for the app's
 * chunks), with its own copy of this module.
 */
const early: EarlyResponses = ((globalThis as { [EARLY_KEY]?: EarlyResponses })[EARLY_KEY] ??= new Map());

/**
 * Starts `GET <url>` now, with `token`, for the app to pick up when it asks for the same URL with
 * the same token within a few seconds (the boot script: the descriptors and the first list page
 * load while the app's code is still arriving). Resolves with a copy of the answer for the caller.
 */
export function startEarlyGet(url: string, token: string): Promise<Response> {
  const response = globalThis.fetch(url, {
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, 'x-access-token': token },
    credentials: 'same-origin',
    // Ahead of the chunks being preloaded at the same time (they share six connections).
    priority: 'high',
  } as RequestInit);
  early.set(url, { token, at: Date.now(), response });
  return response.then((answer) => answer.clone());
}

/** The key prefix, in {@link early}, of a first-list request while its answer has not said its URL (one per page asked for). */
const FIRST_LIST_PENDING = '#first-list:';

/**
 * Starts `GET /api/meta/first-list` for the page at `path` + `search`: the server answers with the
 * page of the list that page shows (naming its list URL in `x-list-url`), or 204 when it is no list
 * the caller may see. The answer then stands, for the app, in place of `GET <that URL>`, as a
 * {@link startEarlyGet} answer would: the boot script no longer waits for the descriptors to know
 * which list to ask for. Until the answer's headers arrive, a GET of the app waits for them first.
 */
export function startEarlyFirstList(path: string, search: string, token: string): void {
  const at = Date.now();
  const response = globalThis.fetch(buildUrl('/meta/first-list', { path, search }), {
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, 'x-access-token': token },
    credentials: 'same-origin',
    priority: 'high',
  } as RequestInit);
  const settled = response.then(
    (answer) => {
      const url = answer.headers.get('x-list-url');
      if (answer.status === 200 && url?.startsWith(`${config.baseUrl}/`)) early.set(url, { token, at, response: Promise.resolve(answer) });
    },
    () => undefined,
  );
  const key = `${FIRST_LIST_PENDING}${path}${search}`;
  early.set(key, { token, at, response: settled.then(() => new Response(null, { status: 204 })) });
  void settled.finally(() => early.delete(key));
}

/** Resolves once every first-list answer started early and still young has said its URL (or failed). */
async function firstListsNamed(): Promise<void> {
  const now = Date.now();
  const pending = [...early].filter(([key, entry]) => key.startsWith(FIRST_LIST_PENDING) && now - entry.at <= EARLY_MAX_AGE_MS);
  await Promise.all(pending.map(([, entry]) => entry.response.catch(() => undefined)));
}

/** The early answer to `GET <url>` with `token`, once; undefined when there is none (or it is too old). */
function takeEarly(url: string, token: string | null): Promise<Response> | undefined {
  const found = early.get(url);
  if (!found) return undefined;
  early.delete(url);
  return found.token === token && Date.now() - found.at <= EARLY_MAX_AGE_MS ? found.response : undefined;
}

/** Sends one request with the token and XSRF headers; `body` is sent as it is. */
async function send(method: string, path: string, body: BodyInit | undefined, contentType: string | undefined, options: RequestOptions) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (contentType) headers['content-type'] = contentType;
  const token = await config.getAccessToken();
  if (token) {
    headers.authorization = `Bearer ${token}`;
    headers['x-access-token'] = token;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    const xsrf = readXsrfCookie();
    if (xsrf) headers['x-xsrf-token'] = xsrf;
    // A write may change what an answer started early says (the first screen's list, opened and
    // left before the app asked for it): none of them stands in for a request after it.
    early.clear();
  }
  Object.assign(headers, options.headers);
  try {
    // A first-list answer (startEarlyFirstList) may be this very GET: wait for them to say their URLs.
    if (method === 'GET' && !options.headers && early.size > 0) await firstListsNamed();
    const started = method === 'GET' && !options.headers && early.size > 0 ? takeEarly(buildUrl(path, options.query), token) : undefined;
    if (started) {
      const response = await started.catch(() => undefined);
      if (response) return { response, token };
    }
    const response = await config.fetch(buildUrl(path, options.query), { method, headers, body, credentials: 'same-origin', signal: options.signal });
    return { response, token };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: 'NETWORK', message: error instanceof Error ? error.message : String(error) });
  }
}

async function request<T>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  const { response, token } = await send(
    method,
    path,
    body === undefined ? undefined : JSON.stringify(body),
    body === undefined ? undefined : 'application/json',
    options,
  );
  if (response.ok && options.responseType === 'blob') return (await response.blob()) as T;
  const parsed = await parseBody(response);
  if (response.ok) return parsed as T;
  throw failure(response, parsed, token, options);
}

/** The {@link ApiError} of a failed answer (and the 401 hand-off). */
function failure(response: Response, parsed: unknown, token: string | null, options: RequestOptions): ApiError {
  const errorBody = (parsed && typeof parsed === 'object' ? parsed : {}) as Partial<ApiErrorBody>;
  const error = new ApiError({
    status: response.status,
    code: isErrorCode(errorBody.code) ? errorBody.code : codeForStatus(response.status),
    message: typeof errorBody.message === 'string' ? errorBody.message : response.statusText,
    errors: Array.isArray(errorBody.errors) ? errorBody.errors : undefined,
    body: parsed,
  });
  if (response.status === 401 && token && options.handleUnauthorized !== false) config.onUnauthorized(error);
  return error;
}

/** A file the API sent, read whole, with what its headers said. */
export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition, when it names one. */
  filename?: string;
}

/** Options of a download: `onProgress` gets the bytes so far and each received chunk. */
export interface DownloadOptions extends RequestOptions {
  onStart?(response: Response): void;
  onProgress?(received: number, chunk: Uint8Array): void;
}

/** Reads a file answer chunk by chunk (progress for large exports), keeping it as a Blob. */
async function download(path: string, options: DownloadOptions = {}): Promise<DownloadedFile> {
  const { response, token } = await send('GET', path, undefined, undefined, options);
  if (!response.ok) throw failure(response, await parseBody(response), token, options);
  options.onStart?.(response);
  const parts: Uint8Array[] = [];
  let received = 0;
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.byteLength;
      options.onProgress?.(received, value);
    }
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1];
  return { blob: new Blob(parts as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' }), filename };
}

/** Sends a file's bytes as the body (`application/octet-stream`) and returns the JSON answer. */
async function upload<T>(path: string, file: Blob, options: RequestOptions = {}): Promise<T> {
  const { response, token } = await send('POST', path, file, 'application/octet-stream', options);
  const parsed = await parseBody(response);
  if (response.ok) return parsed as T;
  throw failure(response, parsed, token, options);
}

/** Sends a multipart form (`FormData`: the browser sets its boundary) and returns the JSON answer. */
async function uploadForm<T>(path: string, form: FormData, options: RequestOptions = {}): Promise<T> {
  const { response, token } = await send('POST', path, form, undefined, options);
  const parsed = await parseBody(response);
  if (response.ok) return parsed as T;
  throw failure(response, parsed, token, options);
}

/**
 * The one door to the API: JSON in and out, `credentials: 'same-origin'`, the access token as
 * `Authorization: Bearer` and `x-access-token`, `X-XSRF-TOKEN` on writes. Paths are relative to
 * `/api`. Every failure is an {@link ApiError}.
 *
 * @example const { data } = await http.get<ListResponse<Category>>('/categories', { query: { page: 2 } });
 */
export const http = {
  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return request<T>('GET', path, undefined, options);
  },
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return request<T>('POST', path, body, options);
  },
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return request<T>('PUT', path, body, options);
  },
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return request<T>('PATCH', path, body, options);
  },
  /** `body`, when given, is sent as JSON (a DELETE that needs a reason). */
  delete<T>(path: string, options?: RequestOptions, body?: unknown): Promise<T> {
    return request<T>('DELETE', path, body, options);
  },
  download,
  upload,
  uploadForm,
};
