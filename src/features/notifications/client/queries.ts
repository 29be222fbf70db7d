import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { NewContestsData, NotificationsData, NotificationsReadBody, NotificationsReadResult } from '../index.js';

/** Notifications' query keys. */
const keys = { all: ['notifications'] as const };

/** The header's own events (`GET /api/notifications`, every role); fresh for a minute. */
export const notificationsOptions = () =>
  queryOptions({
    queryKey: [...keys.all, 'own'] as const,
    queryFn: ({ signal }) => http.get<{ data: NotificationsData }>('/notifications', { signal }).then((answer) => answer.data),
    staleTime: 60_000,
  });

/** An admin's new contests since the previous sign-in (`GET /api/notifications/new-contests`, admins only: query it only for an admin); fresh for a minute. */
export const newContestsOptions = () =>
  queryOptions({
    queryKey: [...keys.all, 'new-contests'] as const,
    queryFn: ({ signal }) => http.get<{ data: NewContestsData }>('/notifications/new-contests', { signal }).then((answer) => answer.data),
    staleTime: 60_000,
  });

/** Marks the user's own events read (`POST /api/notifications/read`): some by id, or all. */
export function markNotificationsRead(body: NotificationsReadBody): Promise<NotificationsReadResult> {
  return http.post<{ data: NotificationsReadResult }>('/notifications/read', body).then((answer) => answer.data);
}

/** Refreshes the header's notifications (own events and new contests). */
export function invalidateNotifications(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.all });
}
