import type { FastifyInstance } from 'fastify';
import { object } from '../../../server/index.js';
import type { CurrentEditionUpdate } from '../shared/edition-contract.js';
import { chooseEdition, currentEditionOf } from './edition.service.js';

const editionSchema = object({ id: { type: 'integer' }, name: { type: 'string' }, year: { type: 'integer' }, status: { type: 'string' } }, [
  'id',
  'name',
  'year',
  'status',
]);

/** `{ data: CurrentEditionData }`. */
const currentAnswer = object(
  {
    data: object(
      {
        current: { anyOf: [editionSchema, { type: 'null' }] },
        chosen: { type: 'boolean' },
        editions: { type: 'array', items: editionSchema },
      },
      ['current', 'chosen', 'editions'],
    ),
  },
  ['data'],
);

const updateBody = object({ edition_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, ['edition_id']);

/**
 * `GET /api/me/edition`: the signed-in admin's current edition and every edition;
 * `PUT /api/me/edition` `{edition_id}`: chooses it (kept per person, audited).
 */
export async function editionRoutes(app: FastifyInstance) {
  app.get(
    '/me/edition',
    { schema: { summary: 'The edition the signed-in person works in, and every edition.', tags: ['editions'], response: { 200: currentAnswer } } },
    async (request) => ({ data: await currentEditionOf(app.db, request.user.id) }),
  );
  app.put(
    '/me/edition',
    {
      schema: {
        summary: 'Chooses the edition the signed-in person works in (lists, exports and the dashboard follow it).',
        tags: ['editions'],
        body: updateBody,
        response: { 200: currentAnswer },
      },
    },
    async (request) => {
      const body = request.body as CurrentEditionUpdate;
      return { data: await chooseEdition(app.db, { userId: request.user.id, editionId: body.edition_id, ip: request.ip ?? null }) };
    },
  );
}
