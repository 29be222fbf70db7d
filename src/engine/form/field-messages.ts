import { ApiError } from '../data/api-error.js';

/** Field path → the first translated message the server gave for it (422 `errors`). */
export function fieldMessages(error: unknown, t: (key: string, values?: Record<string, unknown>) => string): Record<string, string> {
  const result: Record<string, string> = {};
  if (!(error instanceof ApiError) || !error.errors) return result;
  for (const fieldError of error.errors) {
    result[fieldError.path] ??= t(fieldError.messageKey, fieldError.params);
  }
  return result;
}
