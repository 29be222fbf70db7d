/** Notifications' shared face: the wire types of the header's list of what is new. */

/** One recently submitted contest in the header's notification list. */
export interface NotificationItem {
  id: number;
  customer: string | null;
  company: string | null;
  category: string | null;
  created_at: string;
  /** The contest's detail page (`/manage-contest/12`). */
  href: string;
}

/** `GET /api/notifications` → `{ data: NotificationsData }`. */
export interface NotificationsData {
  /** Contests submitted at or after this moment are new: the admin's previous sign-in, or 7 days ago on a first sign-in. */
  since: string;
  count: number;
  /** The newest few, newest first. */
  latest: NotificationItem[];
  /** The contest list showing the new contests (filtered from `since` when the list has such a filter, newest first). */
  href: string;
}
