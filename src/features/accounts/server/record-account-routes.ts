import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { badRequest, clientOf, NO_BODY_SCHEMA, object } from '../../../server/index.js';
import { MAX_RECORD_ID } from '../../../shared/record-id.js';
import { roleLinks } from '../../../shared/roles.js';
import { AccountsAdmin } from './accounts-admin.js';
import { type DeclaredLink, RecordAccounts } from './record-accounts.js';

const nullableString = { type: ['string', 'null'] } as const;
const recordId = { type: 'integer', minimum: 1, maximum: MAX_RECORD_ID } as const;
const data = (schema: object) => object({ data: schema }, ['data']);

/** A record's portal account (`RecordAccount`). */
const recordAccountSchema = object(
  {
    record_id: { type: 'integer' },
    state: { type: 'string', enum: ['none', 'invited', 'active', 'disabled'] },
    account_id: { type: ['integer', 'null'] },
    email: nullableString,
    invited_at: nullableString,
    last_login_at: nullableString,
  },
  ['record_id', 'state', 'account_id'],
);

const inviteAnswer = data(object({ outcome: { type: 'string', enum: ['invited', 'linked', 'resent'] }, account: recordAccountSchema }, ['outcome', 'account']));

const bulkAnswer = data(
  object(
    {
      invited: { type: 'integer' },
      skipped: {
        type: 'array',
        items: object(
          {
            id: { type: 'integer' },
            name: nullableString,
            reason: { type: 'string', enum: ['not_found', 'active', 'invited', 'disabled', 'email_taken', 'no_email'] },
          },
          ['id', 'reason'],
        ),
      },
    },
    ['invited', 'skipped'],
  ),
);

/** A route's schema: its OpenAPI tag and summary, the request parts, the answers. */
const route = (summary: string, parts: Record<string, unknown>) => ({ tags: ['accounts'], summary, ...parts }) as FastifySchema;

const idParams = object({ id: { type: 'string', description: 'The record id.' } }, ['id']);

function idOf(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0 || id > MAX_RECORD_ID) throw badRequest('Invalid record ID');
  return id;
}

/**
 * The portal accounts of linked records, admins only, for every declared role link whose entity is
 * loaded (the juror's `jury` record: `/api/juries/...`): `GET /<endpoint>/:id/account` (the
 * record's account state), `POST /<endpoint>/:id/account` (invite it, or send its pending
 * invitation again), `POST /<endpoint>/accounts` (`{ids}`: invite many, each skipped with its
 * reason), and `GET /accounts/link-candidates?role=` (the records no account stands for yet, for
 * the invite form's choice).
 */
export async function recordAccountRoutes(app: FastifyInstance) {
  const records = new RecordAccounts(app, new AccountsAdmin(app));
  const links: DeclaredLink[] = roleLinks().filter((link) => app.entities.byName.has(link.entity));

  for (const link of links) {
    const endpoint = app.entities.byName.get(link.entity)!.descriptor.endpoint;
    const what = `${link.role} account of a ${link.entity} record`;
    app.get(
      `/${endpoint}/:id/account`,
      { schema: route(`The ${what}: none, invited, active or disabled.`, { params: idParams, response: { 200: data(recordAccountSchema) } }) },
      async (request) => ({ data: await records.state(link, idOf(request)) }),
    );
    app.post(
      `/${endpoint}/:id/account`,
      {
        schema: route(
          `Invite the record to the portal: its ${link.role} account created and linked (or the one with its e-mail linked), or its pending invitation sent again.`,
          { params: idParams, body: NO_BODY_SCHEMA, response: { 200: inviteAnswer } },
        ),
      },
      async (request) => {
        const { outcome, state } = await records.invite(request.user, link, idOf(request), clientOf(request));
        return { data: { outcome, account: state } };
      },
    );
    app.get(
      `/${endpoint}/accounts`,
      {
        schema: route(`Every ${link.entity} record with its portal account's state (none, invited, active, disabled).`, {
          response: {
            200: data({
              type: 'array',
              items: object(
                {
                  id: { type: 'integer' },
                  name: { type: 'string' },
                  email: nullableString,
                  state: { type: 'string', enum: ['none', 'invited', 'active', 'disabled'] },
                },
                ['id', 'name', 'state'],
              ),
            }),
          },
        }),
      },
      async () => ({ data: await records.states(link) }),
    );
    app.post<{ Body: { ids: number[] } }>(
      `/${endpoint}/accounts`,
      {
        schema: route(`Invite many ${link.entity} records to the portal; answers how many were invited and which were skipped, and why.`, {
          body: object({ ids: { type: 'array', minItems: 1, maxItems: 500, items: recordId } }, ['ids']),
          response: { 200: bulkAnswer },
        }),
      },
      async (request) => ({ data: await records.inviteMany(request.user, link, request.body.ids, clientOf(request)) }),
    );
  }

  if (links.length === 0) return;
  app.get<{ Querystring: { role: string } }>(
    '/accounts/link-candidates',
    {
      schema: route('The records an account of the role may be linked to and no account stands for yet.', {
        querystring: object({ role: { type: 'string', enum: links.map((link) => link.role) } }, ['role']),
        response: { 200: data({ type: 'array', items: object({ id: { type: 'integer' }, name: { type: 'string' }, email: nullableString }, ['id', 'name']) }) },
      }),
    },
    async (request) => ({ data: await records.candidates(links.find((link) => link.role === request.query.role)!) }),
  );
}
