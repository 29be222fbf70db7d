import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, listScopeOf, NO_BODY_SCHEMA, notFound, parseRecordId } from '../../../server/index.js';
import type { ShortlistRequest } from '../shared/results-contract.js';
import { examModeration, exportDetails } from './moderation.service.js';
import { contestJudging, examResults, resultsOverview } from './results.service.js';
import { type Actor, finaliseExam, overrideAward, reopenExam, shortlist } from './results-actions.service.js';
import { type ExportOptions, exportResults } from './results-export.js';
import {
  awardParams,
  contestJudgingAnswer,
  contestParams,
  examParams,
  examResultsAnswer,
  exportAnswer,
  exportQuery,
  moderationAnswer,
  overrideBody,
  overviewAnswer,
  reasonBody,
  route,
  shortlistAnswer,
  shortlistBody,
} from './schemas.js';
import { entityDb } from './tables.js';

/** The reason's errors by key, in the user's language (`Give a reason of 3 to 500 characters.`). */
const reasonMessages = {
  reason: {
    required: 'judging.errors.reason_length',
    minLength: 'judging.errors.reason_length',
    maxLength: 'judging.errors.reason_length',
    type: 'judging.errors.reason_length',
  },
};

/**
 * The results of an exam, admins only:
 * - `GET /exams/{id}/results` → `{ data: ExamResultsData }`; `GET /results/overview` → the dashboard's charts;
 *   `GET /contests/{id}/judging` → one contest's rows in the exams it is judged in;
 * - `GET /exams/{id}/moderation` → `{ data: ExamModeration }`: flagged entries, every juror's per-criterion scores and remarks;
 * - `GET /exams/{id}/results/export?format=csv|xlsx&per=entry|juror&anonymise=true&lang=en|id|ms` → the file;
 * - `POST /exams/{id}/shortlist` `{top}` or `{min_score}`, with `dry_run` → `{ data: ShortlistResult }`;
 * - `PUT /exams/{id}/awards/{contestId}` `{award_category_id (null: none), reason}` overrides one award;
 *   `DELETE` with `{reason}` gives the rules' award back;
 * - `POST /exams/{id}/finalise` locks grades and results; `POST /exams/{id}/reopen` `{reason}` unlocks.
 * Every write is audited against the exam (results-actions.service.ts).
 */
export async function resultsRoutes(app: FastifyInstance) {
  const db = entityDb(app.db);
  const examEntity = () => {
    const entity = app.entities.byName.get('exam');
    if (!entity) throw notFound('Examinations are not configured.');
    return entity;
  };
  const examId = (request: FastifyRequest) => parseRecordId(examEntity(), (request.params as { id: string }).id);
  const contestId = (request: FastifyRequest, param: 'id' | 'contestId') =>
    parseRecordId(app.entities.byName.get('contest')!, (request.params as Record<string, string>)[param]);
  const actor = (request: FastifyRequest): Actor => {
    if (request.user?.role !== 'admin') throw forbidden();
    return { userId: request.user.id, ip: request.ip ?? null };
  };

  app.get(
    '/results/overview',
    { schema: route("The dashboard's charts over every examination: final scores, juror leniency, grading progress.", { response: { 200: overviewAnswer } }) },
    async (request) => {
      actor(request);
      const exam = app.entities.byName.get('exam');
      const scope = exam ? await listScopeOf({ entity: exam, db: app.db, userId: request.user.id }) : {};
      return { data: await resultsOverview(db, app.entities, scope) };
    },
  );

  app.get(
    '/contests/:id/judging',
    {
      schema: route("One contest's judging: its status and its row in each examination it is an entry of.", {
        params: contestParams,
        response: { 200: contestJudgingAnswer },
      }),
    },
    async (request) => {
      actor(request);
      return { data: await contestJudging(db, app.entities, contestId(request, 'id')) };
    },
  );

  app.get(
    '/exams/:id/results',
    {
      schema: route("An examination's results: the locked figures once finalised, else computed now.", {
        params: examParams,
        response: { 200: examResultsAnswer },
      }),
    },
    async (request) => {
      actor(request);
      return { data: await examResults(db, app.entities, examId(request)) };
    },
  );

  app.get(
    '/exams/:id/moderation',
    {
      schema: route(
        "An examination's moderation: the flagged entries (and those with a reopened grade), every juror's per-criterion scores and remarks side by side.",
        {
          params: examParams,
          response: { 200: moderationAnswer },
        },
      ),
    },
    async (request) => {
      actor(request);
      return { data: await examModeration(db, app.entities, examId(request)) };
    },
  );

  app.get<{ Querystring: { format: 'csv' | 'xlsx'; per: 'entry' | 'juror'; anonymise: boolean; lang: 'en' | 'id' | 'ms' } }>(
    '/exams/:id/results/export',
    {
      schema: route("An examination's results as a CSV or XLSX file, per entry or per juror, anonymised on request, headers in the chosen language.", {
        params: examParams,
        querystring: exportQuery,
        response: { 200: exportAnswer },
      }),
    },
    async (request, reply) => {
      actor(request);
      const q = request.query;
      const options: ExportOptions = { format: q.format, per: q.per, anonymise: q.anonymise, language: q.lang };
      const id = examId(request);
      const details = q.per === 'juror' ? await exportDetails(db, app.entities, id) : undefined;
      const file = await exportResults(await examResults(db, app.entities, id), options, details);
      return reply.header('content-type', file.contentType).header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.body);
    },
  );

  app.post<{ Body: ShortlistRequest }>(
    '/exams/:id/shortlist',
    {
      schema: route("Shortlist a Round 1 examination's top N (or those at or above a score) into its category's Round 2; a dry run only tells.", {
        params: examParams,
        body: shortlistBody,
        response: { 200: shortlistAnswer },
      }),
    },
    async (request) => ({ data: await shortlist(db, app.entities, examId(request), request.body ?? {}, actor(request)) }),
  );

  app.put<{ Params: { id: string; contestId: string }; Body: { award_category_id: number | null; reason: string } }>(
    '/exams/:id/awards/:contestId',
    {
      config: { messages: reasonMessages },
      schema: route("Override one entry's award (null: no award), with a reason.", {
        params: awardParams,
        body: overrideBody,
        response: { 200: examResultsAnswer },
      }),
    },
    async (request) => {
      const who = actor(request);
      const contest = contestId(request, 'contestId');
      const id = examId(request);
      await overrideAward(db, app.entities, id, contest, { awardId: request.body.award_category_id, reason: request.body.reason.trim() }, who);
      return { data: await examResults(db, app.entities, id) };
    },
  );

  app.delete<{ Params: { id: string; contestId: string }; Body: { reason: string } }>(
    '/exams/:id/awards/:contestId',
    {
      config: { messages: reasonMessages },
      schema: route('Give an entry back the award the rules give it, with a reason.', {
        params: awardParams,
        body: reasonBody,
        response: { 200: examResultsAnswer },
      }),
    },
    async (request) => {
      const who = actor(request);
      const contest = contestId(request, 'contestId');
      const id = examId(request);
      await overrideAward(db, app.entities, id, contest, { awardId: undefined, reason: request.body.reason.trim() }, who);
      return { data: await examResults(db, app.entities, id) };
    },
  );

  app.post(
    '/exams/:id/finalise',
    {
      schema: route('Finalise an examination: its results as they are now are locked, and so are its grades.', {
        params: examParams,
        body: NO_BODY_SCHEMA,
        response: { 200: examResultsAnswer },
      }),
    },
    async (request) => ({
      data: await finaliseExam(db, app.entities, examId(request), actor(request), { mailer: app.mailer, publicUrl: app.config.publicUrl }),
    }),
  );

  app.post<{ Body: { reason: string } }>(
    '/exams/:id/reopen',
    {
      config: { messages: reasonMessages },
      schema: route('Reopen a finalised examination, with a reason: its results are computed again and its grades unlock.', {
        params: examParams,
        body: reasonBody,
        response: { 200: examResultsAnswer },
      }),
    },
    async (request) => ({ data: await reopenExam(db, app.entities, examId(request), request.body.reason.trim(), actor(request)) }),
  );
}
