import type {} from '@tanstack/react-query';
import type { ErrorCode, FieldError } from '../../shared/api-contract.js';

/** The code of a failure that never reached the server (offline, DNS, aborted connection). */
export type TransportErrorCode = 'NETWORK';

/** The i18n key shown when neither the server nor the transport said anything useful (spec §8). */
export const FALLBACK_ERROR_KEY = 'errors.generic';

/** The English fallback kept in `message` so logs and non-UI callers still read something. */
export const FALLBACK_ERROR_MESSAGE = 'An error occurred';

/**
 * A non-2xx answer from the API, or a transport failure (`status` 0, code `NETWORK`).
 * `message` is the server's `message`, else the transport's message, else 'An error occurred';
 * show it through {@link errorMessageKey} / {@link describeError} so the fallback is translated.
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

/**
 * The text to show for any thrown value: the server or transport message when there is one, else
 * the translated 'An error occurred'.
 *
 * @example toast.error(describeError(error, t))
 */
export function describeError(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError) return error.isFallbackMessage ? t(FALLBACK_ERROR_KEY) : error.message;
  if (error instanceof Error && error.message.trim()) return error.message;
  return t(FALLBACK_ERROR_KEY);
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
