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

/** One of the signed-in user's own events (a mail written to them: `notification_outbox` rows with their id). */
export interface NotificationEvent {
  id: number;
  /** The mail's template (`assignmentsSaved`, `gradeReopened`, ...). */
  template: string;
  /** The mail's subject, in the language it was written in. */
  subject: string;
  created_at: string;
  /** When the user marked it read; null while unread. */
  read_at: string | null;
}

/** `POST /api/notifications/read` body: the ids of the user's own events to mark read, or `all`. */
export interface NotificationsReadBody {
  ids?: number[];
  all?: boolean;
}

/** `POST /api/notifications/read` → `{ data: NotificationsReadResult }`: the ids marked now, and how many stay unread. */
export interface NotificationsReadResult {
  ids: number[];
  unread: number;
}

/**
 * `GET /api/notifications` → `{ data: NotificationsData }` (every role): the signed-in user's own
 * events, nothing about anyone else.
 */
export interface NotificationsData {
  /** The user's own events, unread first, newest first within each (at most 20). */
  events: NotificationEvent[];
  /** How many of the user's own events are unread (all of them, not only those listed). */
  unread: number;
}

/**
 * `GET /api/notifications/new-contests` → `{ data: NewContestsData }` (admins only): the contests
 * submitted since the admin's previous sign-in, with their submittor and company.
 */
export interface NewContestsData {
  /** Contests submitted at or after this moment are new: the admin's previous sign-in, or 7 days ago on a first sign-in. */
  since: string;
  count: number;
  /** The newest few, newest first. */
  latest: NotificationItem[];
  /** The contest list showing the new contests (filtered from `since` when the list has such a filter, newest first). */
  href: string;
}

/** A mail's state in the outbox. */
export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';

/** One message in the outbox (`GET /api/outbox`, admins). */
export interface OutboxItem {
  id: number;
  user_id: number | null;
  recipient: string;
  template: string;
  language: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  last_error: string | null;
  created_at: string;
  queued_at: string;
  next_attempt_at: string;
  sent_at: string | null;
  /** The secret link (invitation, password reset) while the message is not sent; null otherwise. */
  link: string | null;
}

/** `GET /api/outbox` → `{ data: OutboxItem[], meta: OutboxMeta }`. */
export interface OutboxMeta {
  total: number;
  page: number;
  per_page: number;
  /** Whether this server sends (SMTP_URL set); without it messages stay queued here. */
  smtp: boolean;
  /** How many messages of each status (all templates). */
  counts: Record<OutboxStatus, number>;
  /** Every template in the outbox, for the filter. */
  templates: string[];
}

/** `POST /api/outbox/retry` and `/cancel` → `{ data: OutboxActionResult }`: the ids changed. */
export interface OutboxActionResult {
  ids: number[];
}
