import type { ColumnType, Generated, Kysely } from 'kysely';
import type { SystemTables } from '../../../server/index.js';

/** A message's state in the outbox. */
export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';
export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['queued', 'sending', 'sent', 'failed', 'cancelled'];

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** `notification_outbox` (migration `018-notifications-outbox`). */
export interface OutboxTable {
  id: Generated<number>;
  user_id: number | null;
  recipient: string;
  template: string;
  language: string;
  vars: ColumnType<Record<string, string | number>, string, string>;
  subject: string;
  body: string;
  /** The secret link (invitation, password reset): admins only, never the info log. */
  link: string | null;
  message_id: string;
  status: ColumnType<OutboxStatus, OutboxStatus | undefined, OutboxStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: Timestamp;
  claimed_until: NullableTimestamp;
  claimed_by: string | null;
  queued_at: Timestamp;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  read_at: NullableTimestamp;
}

export interface OutboxTables extends SystemTables {
  notification_outbox: OutboxTable;
}

export type OutboxDb = Kysely<OutboxTables>;

/** The app's (or a transaction's) Kysely, typed for the outbox. */
export function outboxDb(db: Kysely<any>): OutboxDb {
  return db as OutboxDb;
}
