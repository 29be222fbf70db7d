import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseRecordId } from '../../../server/index.js';
import { type ContestReviewInput, REVIEW_REASON_MAX } from '../shared/contest-review.js';
import { reviewContest } from './review.service.js';
import { idParams, object, route } from './schemas.js';
import { judgingDb } from './tables.js';

const reviewBody = object(
  {
    decision: { type: 'string', enum: ['approve', 'reject'] },
    reason: { type: 'string', maxLength: REVIEW_REASON_MAX, description: 'Why; required to reject.' },
  },
  ['decision'],
);
const reviewAnswer = object({
  data: object({
    id: { type: 'integer' },
    status: { type: 'string' },
    category_id: { type: 'integer' },
    edition_id: { type: ['integer', 'null'] },
    customer_id: { type: ['integer', 'null'] },
  }),
});

/**
 * An admin reviews an entry (admins only: the route names no roles): approve or reject with a
 * reason (review.service.ts); the submittor is told by mail in the same transaction.
 */
export async function reviewRoutes(app: FastifyInstance) {
  const db = judgingDb(app.db);
  const idOf = (request: FastifyRequest) => parseRecordId(app.entities.byName.get('contest')!, (request.params as { id: string }).id);

  app.post<{ Body: ContestReviewInput }>(
    '/contests/:id/review',
    {
      config: { messages: { reason: { maxLength: 'judging.review.reason_length' } } },
      schema: route('Review an entry: approve it (eligible for Round 1) or reject it with a reason; only a pending or submitted entry.', {
        params: idParams('Contest'),
        body: reviewBody,
        response: { 200: reviewAnswer },
      }),
    },
    async (request) => {
      const mail = { mailer: app.mailer, publicUrl: app.config.publicUrl };
      const { reason: _reason, ...contest } = await reviewContest(db, idOf(request), request.body, { userId: request.user.id, ip: request.ip ?? null }, mail);
      return { data: contest };
    },
  );
}
