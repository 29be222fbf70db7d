import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import { http, type QueryParams } from '../../../engine/index.js';
import type { OutboxActionResult, OutboxItem, OutboxMeta } from '../index.js';

/** The outbox's query keys, under `['outbox']`. */
const keys = { all: ['outbox'] as const, page: (query: QueryParams) => ['outbox', query] as const };

/** One page of the outbox with its filters (`GET /api/outbox`); the previous page stays while the next loads. */
export const outboxOptions = (query: QueryParams) =>
  queryOptions({
    queryKey: keys.page(query),
    queryFn: ({ signal }) => http.get<{ data: OutboxItem[]; meta: OutboxMeta }>('/outbox', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });

/** Queues messages again (`POST /api/outbox/retry`) or cancels them (`/cancel`); answers the ids changed. */
export function outboxAction(action: 'retry' | 'cancel', ids: number[]): Promise<OutboxActionResult> {
  return http.post<{ data: OutboxActionResult }>(`/outbox/${action}`, { ids }).then((answer) => answer.data);
}

/** Refreshes every page of the outbox. */
export function invalidateOutbox(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.all });
}
