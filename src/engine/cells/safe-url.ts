/**
 * The URL when it is an absolute http(s) URL, else `null`: user-supplied URLs are never rendered
 * with another scheme (`javascript:`, `data:`), nor relative.
 */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
