import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { NotificationsData, NotificationsReadBody, NotificationsReadResult } from '../index.js';

/** Notifications' query keys. */
const keys = { all: ['notifications'] as const };

/** The header's notifications (`GET /api/notifications`): the user's own events and, for admins, new contests; fresh for a minute. */
export const notificationsOptions = () =>
  queryOptions({
    queryKey: keys.all,
    queryFn: ({ signal }) => http.get<{ data: NotificationsData }>('/notifications', { signal }).then((answer) => answer.data),
    staleTime: 60_000,
  });

/** Marks the user's own events read (`POST /api/notifications/read`): some by id, or all. */
export function markNotificationsRead(body: NotificationsReadBody): Promise<NotificationsReadResult> {
  return http.post<{ data: NotificationsReadResult }>('/notifications/read', body).then((answer) => answer.data);
}

/** Refreshes the header's notifications. */
export function invalidateNotifications(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.all });
}
