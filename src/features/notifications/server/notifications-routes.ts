import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { type EntityRegistry, findUserById, object, type SystemTables } from '../../../server/index.js';
import type { NotificationsData } from '../index.js';

/** How many new contests the header lists. */
export const LATEST_NOTIFICATIONS = 5;
/** On an admin's first sign-in (no previous one), contests of this many past days count as new. */
export const FIRST_SIGN_IN_DAYS = 7;

/**
 * The contests submitted since `since`: how many, the newest few with their submittor, company and
 * category, and the contest list's address showing them (from `since` when the contest descriptor
 * has a `gte` filter on `created_at`, newest first in any case).
 */
export async function newContestsSince(db: Kysely<SystemTables>, registry: EntityRegistry, since: Date): Promise<NotificationsData> {
  const contest = registry.byName.get('contest');
  const empty: NotificationsData = { since: since.toISOString(), count: 0, latest: [], href: '/manage-contest' };
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

const nullableString = { type: ['string', 'null'] } as const;

/** `{ data: NotificationsData }`, every field the header reads. */
const notificationsSchema = object(
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

/**
 * GET /api/notifications: contests submitted since the signed-in admin's previous sign-in
 * (`{ data: NotificationsData }`); on a first sign-in, those of the last {@link FIRST_SIGN_IN_DAYS} days.
 */
export async function notificationRoutes(app: FastifyInstance) {
  app.get('/notifications', { schema: { summary: 'What is new since the previous sign-in.', response: { 200: notificationsSchema } } }, async (request) => {
    const user = await findUserById(app.db, request.user.id);
    const since = user?.previous_login_at ? new Date(user.previous_login_at) : new Date(Date.now() - FIRST_SIGN_IN_DAYS * 24 * 3_600_000);
    return { data: await newContestsSince(app.db, app.entities, since) };
  });
}
