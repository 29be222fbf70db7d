import { ApiError, describeError } from '../../../engine/index.js';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The message of a refused portal invitation: its first field error's key translated, else the error's code. */
export function portalError(error: unknown, t: Translate): string {
  const first = error instanceof ApiError ? error.errors?.[0] : undefined;
  return first?.messageKey ? t(first.messageKey, { ...first.params }) : describeError(error, t as never);
}
