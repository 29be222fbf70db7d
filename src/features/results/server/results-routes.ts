import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ShortlistRequest } from '../shared/results-contract.js';
import { forbidden, notFound } from '../../../server/index.js';
import { parseRecordId } from '../../../server/index.js';
import { type Actor, finaliseExam, overrideAward, reopenExam, shortlist } from './results-actions.js';
import { type ExportOptions, exportResults } from './results-export.js';
import { contestJudging, examResults, resultsOverview } from './results-service.js';

const reason = { type: 'string', minLength: 3, maxLength: 500 } as const;
/** The reason's errors by key, in the user's language (`Give a reason of 3 to 500 characters.`). */
const reasonMessages = { reason: { required: 'judging.errors.reason_length', minLength: 'judging.errors.reason_length', maxLength: 'judging.errors.reason_length', type: 'judging.errors.reason_length' } };

/**
 * The results of an exam, admins only:
 * - `GET /exams/{id}/results` → `{ data: ExamResultsData }`; `GET /results/overview` → the dashboard's charts;
 *   `GET /contests/{id}/judging` → one contest's rows in the exams it is judged in;
 * - `GET /exams/{id}/results/export?format=csv|xlsx&per=entry|juror&anonymise=true&lang=en|id|ms` → the file;
 * - `POST /exams/{id}/shortlist` `{top}` or `{min_score}`, with `dry_run` → `{ data: ShortlistResult }`;
 * - `PUT /exams/{id}/awards/{contestId}` `{award_category_id (null: none), reason}` overrides one award;
 *   `DELETE` with `{reason}` gives the rules' award back;
 * - `POST /exams/{id}/finalise` locks grades and results; `POST /exams/{id}/reopen` `{reason}` unlocks.
 * Every write is audited against the exam.
 */
export async function resultsRoutes(app: FastifyInstance) {
  const examEntity = () => {
    const entity = app.entities.byName.get('exam');
    if (!entity) throw notFound('Examinations are not configured.');
    return entity;
  };
  const examId = (request: FastifyRequest) => parseRecordId(examEntity(), (request.params as { id: string }).id);
  const actor = (request: FastifyRequest): Actor => {
    if (request.user?.role !== 'admin') throw forbidden();
    return { userId: request.user.id, ip: request.ip ?? null };
  };
  const ctx = () => [app.db, app.entities] as const;

  app.get('/results/overview', async (request) => {
    actor(request);
    return { data: await resultsOverview(...ctx()) };
  });

  app.get('/contests/:id/judging', async (request) => {
    actor(request);
    const id = parseRecordId(app.entities.byName.get('contest')!, (request.params as { id: string }).id);
    return { data: await contestJudging(...ctx(), id) };
  });

  app.get('/exams/:id/results', async (request) => {
    actor(request);
    return { data: await examResults(...ctx(), examId(request)) };
  });

  app.get<{ Querystring: { format: 'csv' | 'xlsx'; per: 'entry' | 'juror'; anonymise: boolean; lang: 'en' | 'id' | 'ms' } }>(
    '/exams/:id/results/export',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            format: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv' },
            per: { type: 'string', enum: ['entry', 'juror'], default: 'entry' },
            anonymise: { type: 'boolean', default: false },
            lang: { type: 'string', enum: ['en', 'id', 'ms'], default: 'en' },
          },
        },
      },
    },
    async (request, reply) => {
      actor(request);
      const q = request.query;
      const options: ExportOptions = { format: q.format, per: q.per, anonymise: q.anonymise, language: q.lang };
      const file = await exportResults(await examResults(...ctx(), examId(request)), options);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(file.body);
    },
  );

  app.post<{ Body: ShortlistRequest }>(
    '/exams/:id/shortlist',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            top: { type: 'integer', minimum: 1, maximum: 10000 },
            min_score: { type: 'number', minimum: 0, maximum: 1000 },
            dry_run: { type: 'boolean' },
          },
        },
      },
    },
    async (request) => ({ data: await shortlist(...ctx(), examId(request), request.body ?? {}, actor(request)) }),
  );

  app.put<{ Params: { id: string; contestId: string }; Body: { award_category_id: number | null; reason: string } }>(
    '/exams/:id/awards/:contestId',
    {
      config: { messages: reasonMessages },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['award_category_id', 'reason'],
          properties: { award_category_id: { type: ['integer', 'null'], minimum: 1 }, reason },
        },
      },
    },
    async (request) => {
      const who = actor(request);
      const contestId = parseRecordId(app.entities.byName.get('contest')!, request.params.contestId);
      await overrideAward(...ctx(), examId(request), contestId, { awardId: request.body.award_category_id, reason: request.body.reason.trim() }, who);
      return { data: await examResults(...ctx(), examId(request)) };
    },
  );

  app.delete<{ Params: { id: string; contestId: string }; Body: { reason: string } }>(
    '/exams/:id/awards/:contestId',
    { config: { messages: reasonMessages }, schema: { body: { type: 'object', additionalProperties: false, required: ['reason'], properties: { reason } } } },
    async (request) => {
      const who = actor(request);
      const contestId = parseRecordId(app.entities.byName.get('contest')!, request.params.contestId);
      await overrideAward(...ctx(), examId(request), contestId, { awardId: undefined, reason: request.body.reason.trim() }, who);
      return { data: await examResults(...ctx(), examId(request)) };
    },
  );

  app.post('/exams/:id/finalise', async (request) => ({ data: await finaliseExam(...ctx(), examId(request), actor(request)) }));

  app.post<{ Body: { reason: string } }>(
    '/exams/:id/reopen',
    { config: { messages: reasonMessages }, schema: { body: { type: 'object', additionalProperties: false, required: ['reason'], properties: { reason } } } },
    async (request) => ({ data: await reopenExam(...ctx(), examId(request), request.body.reason.trim(), actor(request)) }),
  );
}
