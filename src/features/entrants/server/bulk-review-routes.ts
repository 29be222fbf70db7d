import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../server/index.js';
import { MAX_RECORD_ID } from '../../../shared/record-id.js';
import { reviewContest } from '../../judging/server.js';

const REASON_MAX = 500;
const MAX_IDS = 500;

const object = (properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});

/** One entry left out of a bulk review, and why (the refusal's keyword: `not_reviewable`, `edition_archived`, `not_found`). */
interface Skipped {
  id: number;
  reason: string;
}

/**
 * Reviewing many submitted entries at once (admins: the route names no roles): approve them, or
 * reject them with one reason. Each entry goes through the judging feature's single review (its
 * own transaction, its audit entry with the reason), so a draft or an entry already reviewed is
 * skipped with its reason rather than failing the rest; each reviewed entrant is told (judging's
 * review mails them in its transaction: `entryApproved` / `entryRejected`).
 */
export async function bulkReviewRoutes(app: FastifyInstance) {
  app.post<{ Body: { ids: number[]; decision: 'approve' | 'reject'; reason?: string } }>(
    '/contests/review',
    {
      config: { messages: { reason: { maxLength: 'judging.review.reason_length' }, ids: { minItems: 'entrants.review.noneChosen' } } },
      schema: <Record<string, unknown>>{
        tags: ['entrants'],
        summary: 'Review many entries at once: approve them, or reject them with a reason; drafts and reviewed entries are skipped with the reason.',
        body: object(
          {
            ids: { type: 'array', minItems: 1, maxItems: MAX_IDS, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: MAX_RECORD_ID } },
            decision: { type: 'string', enum: ['approve', 'reject'] },
            reason: { type: 'string', maxLength: REASON_MAX, description: 'Why; required to reject.' },
          },
          ['ids', 'decision'],
        ),
        response: {
          200: object({
            data: object({
              reviewed: { type: 'integer' },
              skipped: { type: 'array', items: object({ id: { type: 'integer' }, reason: { type: 'string' } }) },
            }),
          }),
        },
      },
    },
    async (request) => {
      const { ids, decision, reason } = request.body;
      const mail = { mailer: app.mailer, publicUrl: app.config.publicUrl };
      const skipped: Skipped[] = [];
      let reviewed = 0;
      for (const id of ids) {
        try {
          // The entrant is told by judging's review, by mail in the review's transaction.
          await reviewContest(app.db as never, id, { decision, reason }, { userId: request.user.id, ip: request.ip ?? null }, mail);
          reviewed += 1;
        } catch (error) {
          // A missing reason refuses the whole request; an entry that cannot be reviewed is skipped.
          if (!(error instanceof AppError) || error.statusCode === 422) throw error;
          skipped.push({ id, reason: error.errors?.[0]?.keyword ?? (error.statusCode === 404 ? 'not_found' : error.code) });
        }
      }
      return { data: { reviewed, skipped } };
    },
  );
}
