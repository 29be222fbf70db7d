import { type Kysely, sql } from 'kysely';
import { writeAudit } from '../../../server/index.js';
import type { OutboxActionResult, OutboxItem, OutboxMeta, OutboxStatus } from '../index.js';
import { OUTBOX_STATUSES, outboxDb } from './outbox-tables.js';

/** The fields of one outbox message as `GET /api/outbox` lists it (the query's columns and the schema's required fields). */
export const OUTBOX_ITEM_FIELDS = [
  'id',
  'user_id',
  'recipient',
  'template',
  'language',
  'subject',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'queued_at',
  'next_attempt_at',
  'sent_at',
  'link',
] as const;
/** A filter and page of the outbox list. */
export interface OutboxQuery {
  status?: OutboxStatus;
  template?: string;
  page: number;
  perPage: number;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The outbox, newest first, filtered by status and template, one page; unsent messages carry their link. */
export async function listOutbox(db: Kysely<any>, query: OutboxQuery, smtp: boolean): Promise<{ data: OutboxItem[]; meta: OutboxMeta }> {
  const odb = outboxDb(db);
  let filtered = odb.selectFrom('notification_outbox');
  if (query.status) filtered = filtered.where('status', '=', query.status);
  if (query.template) filtered = filtered.where('template', '=', query.template);
  const [rows, total, byStatus, templates] = await Promise.all([
    filtered
      .select([...OUTBOX_ITEM_FIELDS])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute(),
    filtered.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    odb
      .selectFrom('notification_outbox')
      .select(['status', sql<number>`count(*)`.as('n')])
      .groupBy('status')
      .execute(),
    odb.selectFrom('notification_outbox').select('template').distinct().orderBy('template').execute(),
  ]);
  const counts = Object.fromEntries(OUTBOX_STATUSES.map((status) => [status, 0])) as Record<OutboxStatus, number>;
  for (const row of byStatus) counts[row.status] = Number(row.n);
  return {
    data: rows.map((row) => ({
      id: Number(row.id),
      user_id: row.user_id,
      recipient: row.recipient,
      template: row.template,
      language: row.language,
      subject: row.subject,
      status: row.status,
      attempts: row.attempts,
      last_error: row.last_error,
      created_at: iso(row.created_at)!,
      queued_at: iso(row.queued_at)!,
      next_attempt_at: iso(row.next_attempt_at)!,
      sent_at: iso(row.sent_at),
      link: row.status === 'sent' ? null : row.link,
    })),
    meta: { total: Number(total.n), page: query.page, per_page: query.perPage, smtp, counts, templates: templates.map((t) => t.template) },
  };
}

/** Who acts, for the audit log. */
export interface OutboxActor {
  userId: number;
  ip: string | null;
}

/**
 * Queues messages again now (failed, cancelled, or queued and waiting for their next try): a new
 * retry window starts; the attempts so far are kept. Audited (`outbox.retry`) when any changed.
 */
export async function retryMessages(db: Kysely<any>, ids: readonly number[], actor: OutboxActor): Promise<OutboxActionResult> {
  return outboxDb(db)
    .transaction()
    .execute(async (trx) => {
      const changed = await trx
        .updateTable('notification_outbox')
        .set({ status: 'queued', next_attempt_at: sql`now()`, queued_at: sql`now()`, last_error: null })
        .where('id', 'in', [...ids])
        .where('status', 'in', ['queued', 'failed', 'cancelled'])
        .returning('id')
        .execute();
      const result = { ids: changed.map((row) => Number(row.id)).sort((a, b) => a - b) };
      if (result.ids.length > 0) await writeAudit(trx, { action: 'outbox.retry', userId: actor.userId, ip: actor.ip, details: { ids: result.ids } });
      return result;
    });
}

/** Cancels messages not yet sent (queued or failed; one being sent cannot be). Audited (`outbox.cancel`). */
export async function cancelMessages(db: Kysely<any>, ids: readonly number[], actor: OutboxActor): Promise<OutboxActionResult> {
  return outboxDb(db)
    .transaction()
    .execute(async (trx) => {
      const changed = await trx
        .updateTable('notification_outbox')
        .set({ status: 'cancelled' })
        .where('id', 'in', [...ids])
        .where('status', 'in', ['queued', 'failed'])
        .returning('id')
        .execute();
      const result = { ids: changed.map((row) => Number(row.id)).sort((a, b) => a - b) };
      if (result.ids.length > 0) await writeAudit(trx, { action: 'outbox.cancel', userId: actor.userId, ip: actor.ip, details: { ids: result.ids } });
      return result;
    });
}
