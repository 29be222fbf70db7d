import type { FastifyInstance, FastifyRequest } from 'fastify';
import { object } from '../../../server/index.js';
import type { OutboxStatus } from '../index.js';
import { cancelMessages, listOutbox, OUTBOX_ITEM_FIELDS, retryMessages } from './outbox.service.js';
import { OUTBOX_STATUSES } from './outbox-tables.js';

/** Largest page of the outbox list, and most ids one retry or cancel takes. */
export const MAX_OUTBOX_PAGE = 100;
export const MAX_OUTBOX_IDS = 500;

const nullableString = { type: ['string', 'null'] } as const;
const status = { type: 'string', enum: [...OUTBOX_STATUSES] } as const;

const itemSchema = object(
  {
    id: { type: 'integer' },
    user_id: { type: ['integer', 'null'] },
    recipient: { type: 'string' },
    template: { type: 'string' },
    language: { type: 'string' },
    subject: { type: 'string' },
    status,
    attempts: { type: 'integer' },
    last_error: nullableString,
    created_at: { type: 'string' },
    queued_at: { type: 'string' },
    next_attempt_at: { type: 'string' },
    sent_at: nullableString,
    link: { ...nullableString, description: 'The secret link (invitation, password reset) while the message is not sent.' },
  },
  [...OUTBOX_ITEM_FIELDS],
);

const countsSchema = object(Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, { type: 'integer' }])), [...OUTBOX_STATUSES]);

const listAnswer = object(
  {
    data: { type: 'array', items: itemSchema },
    meta: object(
      {
        total: { type: 'integer' },
        page: { type: 'integer' },
        per_page: { type: 'integer' },
        smtp: { type: 'boolean', description: 'Whether this server sends (SMTP_URL set); without it messages stay queued.' },
        counts: countsSchema,
        templates: { type: 'array', items: { type: 'string' } },
      },
      ['total', 'page', 'per_page', 'smtp', 'counts', 'templates'],
    ),
  },
  ['data', 'meta'],
);

const listQuery = object({
  status,
  template: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' },
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
  per_page: { type: 'integer', minimum: 1, maximum: MAX_OUTBOX_PAGE, default: 25 },
});

const idsBody = object(
  { ids: { type: 'array', minItems: 1, maxItems: MAX_OUTBOX_IDS, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 9_007_199_254_740_991 } } },
  ['ids'],
);
const actionAnswer = object({ data: object({ ids: { type: 'array', items: { type: 'integer' } } }, ['ids']) }, ['data']);

/** A route's schema with its OpenAPI tag and summary. */
const route = (summary: string, parts: { querystring?: object; body?: object; response: Record<number, object> }) => ({
  tags: ['notifications'],
  summary,
  ...parts,
});

const actorOf = (request: FastifyRequest) => ({ userId: Number(request.user.id), ip: request.ip ?? null });

/**
 * The outbox's API (admins, as every route naming no roles): the list of every mail with its state,
 * filtered and paged, and retrying or cancelling one or many (audited). An unsent invitation's or
 * reset's link is in the list so an admin can pass it on when no mail goes out.
 */
export async function outboxRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { status?: OutboxStatus; template?: string; page: number; per_page: number } }>(
    '/outbox',
    {
      schema: route('Every mail the server wrote: recipient, template, language, status, attempts, last error, times; newest first, paged.', {
        querystring: listQuery,
        response: { 200: listAnswer },
      }),
    },
    async (request) => {
      const { status: wanted, template, page, per_page } = request.query;
      return listOutbox(app.db, { status: wanted, template, page, perPage: per_page }, Boolean(app.config.smtpUrl));
    },
  );

  app.post<{ Body: { ids: number[] } }>(
    '/outbox/retry',
    { schema: route('Queues messages again now (failed, cancelled or waiting); audited.', { body: idsBody, response: { 200: actionAnswer } }) },
    async (request) => ({ data: await retryMessages(app.db, request.body.ids, actorOf(request)) }),
  );

  app.post<{ Body: { ids: number[] } }>(
    '/outbox/cancel',
    { schema: route('Cancels messages not yet sent (queued or failed); audited.', { body: idsBody, response: { 200: actionAnswer } }) },
    async (request) => ({ data: await cancelMessages(app.db, request.body.ids, actorOf(request)) }),
  );
}
