import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { NotificationsData } from '../index.js';

/** Notifications' query keys. */
const keys = { all: ['notifications'] as const };

/** The header's notifications (`GET /api/notifications`), fresh for a minute. */
export const notificationsOptions = () =>
  queryOptions({
    queryKey: keys.all,
    queryFn: ({ signal }) => http.get<{ data: NotificationsData }>('/notifications', { signal }).then((answer) => answer.data),
    staleTime: 60_000,
  });

/** Refreshes the header's notifications. */
export function invalidateNotifications(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.all });
}
