import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { MediaLink, MediaListAnswer } from '../index.js';

/** Signed links last 10 to 15 minutes: asked again after 5. */
const FRESH_MS = 5 * 60_000;

let waiting: Array<{ id: number; resolve(item: MediaLink | null): void; reject(error: unknown): void }> = [];

/** Asks for every id wanted in the same moment with one `GET /api/media/links?ids=…` (a list page's logos). */
function flush(): void {
  const batch = waiting;
  waiting = [];
  for (let at = 0; at < batch.length; at += 100) {
    const part = batch.slice(at, at + 100);
    const ids = [...new Set(part.map((entry) => entry.id))];
    http.get<MediaListAnswer>('/media/links', { query: { ids: ids.join(',') } }).then(
      (answer) => {
        const byId = new Map(answer.data.map((item) => [item.id, item]));
        for (const entry of part) entry.resolve(byId.get(entry.id) ?? null);
      },
      (error: unknown) => {
        for (const entry of part) entry.reject(error);
      },
    );
  }
}

/** One file's item (its signed links), batched with the others asked for at the same time; null when it may not be seen. */
function loadItem(id: number): Promise<MediaLink | null> {
  return new Promise((resolve, reject) => {
    if (waiting.length === 0) setTimeout(flush, 0);
    waiting.push({ id, resolve, reject });
  });
}

/** A file's item with its signed links, keyed `['media', id]`. */
export const mediaItemOptions = (id: number) =>
  queryOptions({
    queryKey: ['media', id] as const,
    queryFn: () => loadItem(id),
    staleTime: FRESH_MS,
    refetchInterval: FRESH_MS,
    retry: false,
  });
