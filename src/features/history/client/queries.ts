import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import { type AuditPage, http, type QueryParams } from '../../../engine/index.js';
import type { TrashItem } from '../shared/trash-item.js';

/** One page of the trash. */
export interface TrashPage {
  data: TrashItem[];
  meta: { last_page: number; total: number };
}

/** History's query keys, every one under `['history']`. */
const keys = {
  all: ['history'] as const,
  audit: (query: QueryParams) => ['history', 'audit', query] as const,
  trash: (page: number) => ['history', 'trash', page] as const,
};

/** One page of the audit log with its filters (`GET /api/audit`); the previous page stays while the next loads. */
export const auditOptions = (query: QueryParams) =>
  queryOptions({
    queryKey: keys.audit(query),
    queryFn: ({ signal }) => http.get<AuditPage>('/audit', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** One page of the trash (`GET /api/trash`). */
export const trashOptions = (page: number) =>
  queryOptions({
    queryKey: keys.trash(page),
    queryFn: ({ signal }) => http.get<TrashPage>('/trash', { query: { page }, signal }),
    placeholderData: keepPreviousData,
  });

/** History's requests besides its pages. */
export const historyApi = {
  /** The audit log with `query`'s filters (no paging) as CSV text. */
  auditCsv: (query: QueryParams) => http.get<string>('/audit', { query: { ...query, format: 'csv' } }),
  /** Deletes everything in the trash for good. */
  emptyTrash: () => http.delete('/trash'),
};

/** Refreshes the audit log and the trash (a record was deleted, restored or written elsewhere). */
export function invalidateHistory(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.all });
}
