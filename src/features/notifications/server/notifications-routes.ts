import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { type EntityRegistry, findUserById, object, type SystemTables, writeAudit } from '../../../server/index.js';
import { roleNames } from '../../../shared/roles.js';
import type { NewContestsData, NotificationsData, NotificationsReadBody } from '../index.js';
import { outboxDb } from './outbox-tables.js';

/** How many new contests the header lists. */
export const LATEST_NOTIFICATIONS = 5;
/** On an admin's first sign-in (no previous one), contests of this many past days count as new. */
export const FIRST_SIGN_IN_DAYS = 7;

/**
 * The contests submitted since `since`: how many, the newest few with their submittor, company and
 * category, and the contest list's address showing them (from `since` when the contest descriptor
 * has a `gte` filter on `created_at`, newest first in any case).
 */
export async function newContestsSince(db: Kysely<SystemTables>, registry: EntityRegistry, since: Date): Promise<NewContestsData> {
  const contest = registry.byName.get('contest');
  const empty: NewContestsData = { since: since.toISOString(), count: 0, latest: [], href: '/manage-contest' };
  if (!contest) return empty;
  const d = contest.descriptor;
  const table = sql.table(d.table);
  const customers = registry.byName.get('customer')?.descriptor.table;
  const categories = registry.byName.get('category')?.descriptor.table;
  const countRow = await sql<{ n: string }>`select count(*) as n from ${table} where created_at >= ${since}`.execute(db);
  const rows = (
    await sql<{ id: number; created_at: Date | string; customer: string | null; company: string | null; category: string | null }>`
      select c.id, c.created_at,
        ${customers ? sql`cu.name` : sql`null`} as customer, ${customers ? sql`cu.company` : sql`null`} as company,
        ${categories ? sql`(select ca.name from ${sql.table(categories)} ca where ca.id = c.category_id)` : sql`null`} as category
      from ${table} c ${customers ? sql`left join ${sql.table(customers)} cu on cu.id = c.customer_id` : sql``}
      where c.created_at >= ${since} order by c.created_at desc, c.id desc limit ${LATEST_NOTIFICATIONS}`.execute(db)
  ).rows;
  const params = new URLSearchParams({ sort: 'created_at', direction: 'desc' });
  const fromFilter = d.list.filters.find((f) => f.field === 'created_at' && f.operator === 'gte');
  if (fromFilter) params.set(fromFilter.param, since.toISOString());
  return {
    since: since.toISOString(),
    count: Number(countRow.rows[0]?.n ?? 0),
    latest: rows.map((row) => ({
      id: Number(row.id),
      customer: row.customer ?? null,
      company: row.company ?? null,
      category: row.category ?? null,
      created_at: new Date(row.created_at).toISOString(),
      href: `/${d.routes.list}/${Number(row.id)}`,
    })),
    href: `/${d.routes.list}?${params.toString()}`,
  };
}

/** How many of the user's own events the header lists. */
export const MY_NOTIFICATIONS = 20;
/** The most ids one `POST /api/notifications/read` marks. */
export const READ_IDS_MAX = 100;

/** The user's own events (outbox rows with their id, cancelled ones left out), unread first, newest first; and how many are unread. */
export async function ownEvents(db: Kysely<SystemTables>, userId: number): Promise<NotificationsData> {
  const outbox = outboxDb(db);
  const rows = await outbox
    .selectFrom('notification_outbox')
    .select(['id', 'template', 'subject', 'created_at', 'read_at'])
    .where('user_id', '=', userId)
    .where('status', '<>', 'cancelled')
    .orderBy(sql`read_at is null`, 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MY_NOTIFICATIONS)
    .execute();
  return {
    events: rows.map((row) => ({
      id: Number(row.id),
      template: row.template,
      subject: row.subject,
      created_at: new Date(row.created_at).toISOString(),
      read_at: row.read_at ? new Date(row.read_at).toISOString() : null,
    })),
    unread: await unreadCount(db, userId),
  };
}

async function unreadCount(db: Kysely<SystemTables>, userId: number): Promise<number> {
  const row = await outboxDb(db)
    .selectFrom('notification_outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '<>', 'cancelled')
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const nullableString = { type: ['string', 'null'] } as const;

/** `{ data: NotificationsData }`: the user's own events, nothing about anyone else (every role reads it, jurors too). */
const notificationsSchema = object(
  {
    data: object(
      {
        events: {
          type: 'array',
          items: object(
            { id: { type: 'integer' }, template: { type: 'string' }, subject: { type: 'string' }, created_at: { type: 'string' }, read_at: nullableString },
            ['id', 'template', 'subject', 'created_at', 'read_at'],
          ),
        },
        unread: { type: 'integer' },
      },
      ['events', 'unread'],
    ),
  },
  ['data'],
);

/** `{ data: NewContestsData }`: the new contests with their submittor and company, admins only. */
const newContestsSchema = object(
  {
    data: object(
      {
        since: { type: 'string' },
        count: { type: 'integer' },
        latest: {
          type: 'array',
          items: object(
            {
              id: { type: 'integer' },
              customer: nullableString,
              company: nullableString,
              category: nullableString,
              created_at: { type: 'string' },
              href: { type: 'string' },
            },
            ['id', 'created_at', 'href'],
          ),
        },
        href: { type: 'string' },
      },
      ['since', 'count', 'latest', 'href'],
    ),
  },
  ['data'],
);

/** `POST /api/notifications/read` body: `ids` (1 to 100 of the user's own events) or `all: true`. */
const readBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ids: { type: 'array', minItems: 1, maxItems: READ_IDS_MAX, uniqueItems: true, items: { type: 'integer', minimum: 1 } },
    all: { type: 'boolean', const: true },
  },
  oneOf: [{ required: ['ids'] }, { required: ['all'] }],
} as const;

const readAnswer = object({ data: object({ ids: { type: 'array', items: { type: 'integer' } }, unread: { type: 'integer' } }, ['ids', 'unread']) }, ['data']);

/**
 * GET /api/notifications (every signed-in role): the user's own events, unread first (`events`,
 * `unread`), and nothing about anyone else: its schema has no field a juror must not see.
 * GET /api/notifications/new-contests (admins only: no `roles`, the admin default): the contests
 * submitted since the admin's previous sign-in (on a first sign-in, those of the last
 * {@link FIRST_SIGN_IN_DAYS} days), with their submittor and company. POST /api/notifications/read
 * marks the user's own events read (`ids`, or `all`), audited; another user's ids are left alone.
 */
export async function notificationRoutes(app: FastifyInstance) {
  const anyRole = { roles: roleNames() };
  app.get(
    '/notifications',
    { config: anyRole, schema: { summary: 'Your own events, unread first.', response: { 200: notificationsSchema } } },
    async (request) => ({ data: await ownEvents(app.db, request.user.id) }),
  );

  app.get(
    '/notifications/new-contests',
    { schema: { summary: 'Admins: the contests submitted since the previous sign-in, the newest few.', response: { 200: newContestsSchema } } },
    async (request) => {
      const user = await findUserById(app.db, request.user.id);
      const since = user?.previous_login_at ? new Date(user.previous_login_at) : new Date(Date.now() - FIRST_SIGN_IN_DAYS * 24 * 3_600_000);
      return { data: await newContestsSince(app.db, app.entities, since) };
    },
  );

  app.post<{ Body: NotificationsReadBody }>(
    '/notifications/read',
    {
      config: anyRole,
      schema: { summary: 'Mark your own events read: some by id, or all.', body: readBody, response: { 200: readAnswer } } as Record<string, unknown>,
    },
    async (request) => {
      const { ids, all } = request.body;
      const marked = await app.db.transaction().execute(async (trx) => {
        const rows = await outboxDb(trx)
          .updateTable('notification_outbox')
          .set({ read_at: sql<Date>`now()` })
          .where('user_id', '=', request.user.id)
          .where('read_at', 'is', null)
          .$if(!all, (q) => q.where('id', 'in', ids ?? []))
          .returning('id')
          .execute();
        const marked = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
        await writeAudit(trx, { action: 'notifications.read', userId: request.user.id, ip: request.ip ?? null, details: { all: all === true, ids: marked } });
        return marked;
      });
      return { data: { ids: marked, unread: await unreadCount(app.db, request.user.id) } };
    },
  );
}
