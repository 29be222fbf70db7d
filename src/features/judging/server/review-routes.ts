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
 * reason (review.service.ts). The entrant is told by a log line for now.
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
      const { reason, ...contest } = await reviewContest(db, idOf(request), request.body, { userId: request.user.id, ip: request.ip ?? null });
      // The entrant is told here until notifications exist (no secret: the decision and the reason).
      request.log.info({ contest_id: contest.id, customer_id: contest.customer_id, status: contest.status, reason }, 'entrant notified of review');
      return { data: contest };
    },
  );
}
