import type {} from '@tanstack/react-query';
import type { ErrorCode, FieldError } from '../../shared/api-contract.js';

/** The code of a failure that never reached the server (offline, DNS, aborted connection). */
export type TransportErrorCode = 'NETWORK';

/** The i18n key shown when neither the server nor the transport said anything useful. */
export const FALLBACK_ERROR_KEY = 'errors.generic';

/** The English fallback kept in `message` so logs and non-UI callers still read something. */
export const FALLBACK_ERROR_MESSAGE = 'An error occurred';

/**
 * A non-2xx answer from the API, or a transport failure (`status` 0, code `NETWORK`).
 * `message` is the server's English `message`, else the transport's message, else 'An error
 * occurred', for logs; screens show {@link describeError}, which translates by code and key.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  /** The stable code from the body (`VALIDATION`, `SESSION_REPLACED`, ...), or `NETWORK`. */
  readonly code: ErrorCode | TransportErrorCode;
  /** Per-field problems of a 422, each with its i18n message key. */
  readonly errors?: FieldError[];
  /** The parsed response body (or its text when not JSON); undefined for transport failures. */
  readonly body: unknown;
  /** True when `message` is the generic fallback rather than something the server or transport said. */
  readonly isFallbackMessage: boolean;

  constructor(init: {
    status: number;
    code: ErrorCode | TransportErrorCode;
    message?: string | null;
    errors?: FieldError[];
    body?: unknown;
  }) {
    const message = init.message?.trim();
    super(message || FALLBACK_ERROR_MESSAGE);
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors && init.errors.length > 0 ? init.errors : undefined;
    this.body = init.body;
    this.isFallbackMessage = !message;
  }

  /** 4xx answers are the caller's problem: retrying them cannot help. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/** Narrowing helper usable on `unknown` catch values. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A translation function as i18next's `t` (a key and its interpolation values). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The translated sentence for each stable code; `errors.generic` for the rest. */
const CODE_KEYS: Partial<Record<ApiError['code'], string>> = {
  NETWORK: 'errors.network',
  NOT_FOUND: 'errors.codes.notFound',
  CONFLICT: 'errors.codes.conflict',
  FORBIDDEN: 'errors.codes.forbidden',
  RATE_LIMITED: 'errors.codes.rateLimited',
  UNAVAILABLE: 'errors.codes.unavailable',
  UNAUTHENTICATED: 'errors.codes.unauthenticated',
  SESSION_REPLACED: 'errors.codes.sessionReplaced',
  BAD_REQUEST: 'errors.codes.badRequest',
  VALIDATION: 'errors.codes.validation',
};

/** Codes that say nothing a screen's own fallback ('Failed to delete category') does not say better. */
const VAGUE_CODES = new Set<ApiError['code']>(['INTERNAL', 'BAD_REQUEST', 'VALIDATION']);

/** One error item without a field, translated by its `messageKey` (an in-use count names the entity). */
export function translateItem(item: FieldError, t: Translate): string {
  const params = item.params ?? {};
  if (item.keyword === 'inUse' && typeof params.entity === 'string') {
    const count = Number(params.count);
    const users = t(`errors.records.${params.entity}`, { count, defaultValue: `${count} ${params.entity}` });
    return t(item.messageKey, { ...params, users });
  }
  return t(item.messageKey, params);
}

/**
 * The text to show for any thrown value, in the user's language, chosen by the error's `code` and
 * `messageKey`s, never by the server's English `message`: the messages of errors without a field
 * path ('This record is still used by 3 other records.'), else the sentence for the code, else `fallback`
 * (a screen's own 'Failed to delete category') or the translated 'An error occurred'. A transport
 * failure reads 'The server could not be reached...'.
 *
 * @example toasts.error(describeError(error, t, t('entities.category.delete_failed')))
 */
export function describeError(error: unknown, t: Translate, fallback?: string): string {
  if (!(error instanceof ApiError)) return fallback ?? t(FALLBACK_ERROR_KEY);
  const general = (error.errors ?? []).filter((item) => !item.path && item.messageKey);
  if (general.length > 0) return general.map((item) => translateItem(item, t)).join(' ');
  const key = CODE_KEYS[error.code];
  if (key && !(fallback && VAGUE_CODES.has(error.code))) return t(key);
  return fallback ?? t(FALLBACK_ERROR_KEY);
}

/** Maps the status of a body-less error answer to the closest stable code. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 422) return 'VALIDATION';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 503) return 'UNAVAILABLE';
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  return 'INTERNAL';
}

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}
