import type { ErrorCode, FieldError } from '../shared/api-contract.js';

/** An error the API answers with as it is: status, stable code, English message, field errors. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, 'BAD_REQUEST', message, errors);
export const validationFailed = (errors: FieldError[], message = 'The request has invalid fields.') => new AppError(422, 'VALIDATION', message, errors);
export const notFound = (message = 'Not found.') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string, errors?: FieldError[]) => new AppError(409, 'CONFLICT', message, errors);
export const unauthenticated = (message = 'Authentication is required.') => new AppError(401, 'UNAUTHENTICATED', message);
export const sessionReplaced = () => new AppError(401, 'SESSION_REPLACED', 'This session was ended because the account signed in elsewhere.');
export const forbidden = (message = 'You do not have permission to do this.') => new AppError(403, 'FORBIDDEN', message);
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', 'Too many attempts. Please wait and try again.', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const unavailable = (retryAfterSeconds = 5) =>
  new AppError(503, 'UNAVAILABLE', 'The database is unavailable. Please try again shortly.', undefined, {
    'retry-after': String(retryAfterSeconds),
  });

/**
 * Whether a database error is a delete refused because other rows still point at the row: 23503
 * (a foreign key; PostgreSQL 15 reports `on delete restrict` so too) or 23001 (`on delete restrict`
 * as newer releases report it, PGlite's among them).
 */
export function isStillReferenced(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === '23001';
}
