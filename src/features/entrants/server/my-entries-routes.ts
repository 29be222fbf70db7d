import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NO_BODY_SCHEMA, parseRecordId } from '../../../server/index.js';
import { formSchema } from '../../../shared/descriptor/index.js';
import { MAX_RECORD_ID } from '../../../shared/record-id.js';
import type { Role } from '../../../shared/roles.js';
import { ENTRANT_ROLE, ENTRY_ENTITY, type PortalForm } from '../index.js';
import { type Entrant, MyEntries } from './my-entries.service.js';

type Schema = Record<string, unknown>;
const TAGS = ['entrants'];
const ENTRANT = { roles: [ENTRANT_ROLE] as Role[] };

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const id = { type: 'integer', minimum: 1, maximum: MAX_RECORD_ID };
const textOrNull = { type: ['string', 'null'] };
const time = { type: 'string', format: 'date-time' };
const timeOrNull = { type: ['string', 'null'], format: 'date-time' };
const idParams: Schema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', description: "The entry's id: a positive whole number; anything else is a 400." } },
};
const route = (summary: string, parts: Record<string, unknown>): Schema => ({ tags: TAGS, summary, ...parts });

/**
 * The entrant portal's API (`/api/my/contests`, entrants only: every other role is a 403, and an
 * entrant's account is a 403 on every console route): the portal form, the editions and categories
 * open now, the entrant's entries, a new draft, its changes while a draft, and the submit. The
 * bodies carry exactly the descriptor's portal-form fields (plus the edition and category of a new
 * entry): anything else (status, submittor, edition) is a 422.
 */
export async function myEntriesRoutes(app: FastifyInstance) {
  const contest = app.entities.byName.get(ENTRY_ENTITY);
  const portal = contest?.descriptor.forms.portal;
  if (!contest || !portal) {
    app.log.warn('The entry descriptor has no portal form: the entrant portal has no routes.');
    return;
  }
  const service = new MyEntries(app.db as never, app.entities);
  const fieldsSchema = formSchema(contest.schema, portal.fields);
  const fieldProperties = (fieldsSchema.properties ?? {}) as Record<string, Schema>;
  const messages = contest.descriptor.messages;

  const entry = object({
    id,
    status: { type: 'string' },
    edition_id: { type: ['integer', 'null'] },
    edition_name: textOrNull,
    category_id: { type: 'integer' },
    category_name: textOrNull,
    editable: { type: 'boolean' },
    closes_at: timeOrNull,
    created_at: time,
    updated_at: time,
    values: object(fieldProperties),
    awards: { type: 'array', items: object({ award: { type: 'string' }, category: textOrNull }) },
    remarks: {
      type: 'array',
      description: "Once results are published: the jurors' remarks in exams that publish them; the text and the exam, never the juror.",
      items: object({ exam: { type: 'string' }, round: { type: 'integer' }, remark: { type: 'string' } }, ['exam', 'round', 'remark']),
    },
  });
  const one = object({ data: entry });
  const entrantOf = async (request: FastifyRequest): Promise<Entrant> => ({
    userId: request.user.id,
    customerId: await MyEntries.customerOf(app.db as never, request.user.id),
    ip: request.ip ?? null,
  });
  const idOf = (request: FastifyRequest) => parseRecordId(contest, (request.params as { id: string }).id);

  app.get(
    '/my/contests/form',
    {
      config: ENTRANT,
      schema: route("The entry form entrants fill in: the descriptor's portal form (body schema, uiSchema, order, fields required to submit, messages).", {
        response: {
          200: object({
            data: object({
              schema: { type: 'object', additionalProperties: true },
              uiSchema: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } },
              fields: { type: 'array', items: { type: 'string' } },
              required: { type: 'array', items: { type: 'string' } },
              messages: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } },
            }),
          }),
        },
      }),
    },
    async (): Promise<{ data: PortalForm }> => ({
      data: { schema: fieldsSchema, uiSchema: portal.uiSchema, fields: portal.fields, required: portal.required, messages },
    }),
  );

  app.get(
    '/my/contests/options',
    {
      config: ENTRANT,
      schema: route('The editions taking entries now, the active categories, and how many entries the submittor has of their limit.', {
        response: {
          200: object({
            data: object({
              editions: { type: 'array', items: object({ id, name: { type: 'string' }, closes_at: timeOrNull }) },
              categories: { type: 'array', items: object({ id, name: { type: 'string' }, description: textOrNull }) },
              max_entries: { type: 'integer' },
              used: { type: 'integer' },
            }),
          }),
        },
      }),
    },
    async (request) => ({ data: await service.options(await entrantOf(request)) }),
  );

  app.get(
    '/my/contests',
    {
      config: ENTRANT,
      schema: route("The signed-in entrant's entries, newest first, with their status (and, once results are published, their awards).", {
        response: { 200: object({ data: { type: 'array', items: entry } }) },
      }),
    },
    async (request) => ({ data: await service.list(await entrantOf(request)) }),
  );

  app.post<{ Body: Record<string, unknown> }>(
    '/my/contests',
    {
      config: {
        ...ENTRANT,
        messages: { ...messages, edition_id: { required: 'entrants.errors.editionRequired' }, category_id: { required: 'entrants.errors.categoryRequired' } },
      },
      schema: route(
        "A new draft entry in an edition taking entries and an active category (409 when the edition is closed or the submittor's limit is reached).",
        {
          body: { ...object({ edition_id: id, category_id: id, ...fieldProperties }, ['edition_id', 'category_id']) },
          response: { 201: one },
        },
      ),
    },
    async (request, reply) => {
      const created = await service.create(await entrantOf(request), request.body);
      return reply.code(201).send({ data: created });
    },
  );

  app.get(
    '/my/contests/:id',
    {
      config: ENTRANT,
      schema: route("One of the entrant's entries (another entrant's is a 404).", { params: idParams, response: { 200: one } }),
    },
    async (request) => ({ data: await service.read(await entrantOf(request), idOf(request)) }),
  );

  app.put<{ Body: Record<string, unknown> }>(
    '/my/contests/:id',
    {
      config: { ...ENTRANT, messages },
      schema: route("Changes a draft's portal-form fields (those sent); 409 once submitted or after the edition's close.", {
        params: idParams,
        body: object(fieldProperties),
        response: { 200: one },
      }),
    },
    async (request) => ({ data: await service.update(await entrantOf(request), idOf(request), request.body) }),
  );

  app.post(
    '/my/contests/:id/submit',
    {
      config: ENTRANT,
      schema: route("Hands a draft in for review: 422 naming the portal form's required fields left empty, 409 once submitted or after the edition's close.", {
        params: idParams,
        body: NO_BODY_SCHEMA,
        response: { 200: one },
      }),
    },
    async (request) => ({ data: await service.submit(await entrantOf(request), idOf(request)) }),
  );
}
