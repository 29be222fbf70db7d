import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseRecordId } from '../../../server/index.js';
import { assignmentMatrix, judgingProgress } from './admin-views.js';
import { addAssignment, autoAssign, removeAssignment } from './assignments.service.js';
import { moveExamStatus } from './exams.service.js';
import { reopenGrade } from './grades.service.js';
import type { Actor } from './judging-audit.js';
import type { JudgingMail } from './judging-mail.js';
import { sendReminders } from './reminders.service.js';
import {
  assignmentAnswer,
  assignmentBody,
  autoAssignAnswer,
  autoAssignBody,
  gradeAnswer,
  gradeReopenBody,
  idParams,
  matrixAnswer,
  noContent,
  progressAnswer,
  progressQuery,
  remindersAnswer,
  remindersBody,
  route,
  statusAnswer,
  statusBody,
} from './schemas.js';
import { judgingDb } from './tables.js';

/**
 * The admins' judging actions: an exam's status, auto-assign, its assignment matrix,
 * progress, reminders, and reopening a submitted grade. Every write is audited in its transaction
 * (see the services). The routes name no roles: admins only, by the auth guard's default.
 */
export async function judgingRoutes(app: FastifyInstance) {
  const db = judgingDb(app.db);
  const idOf = (name: string, request: FastifyRequest, param = 'id') =>
    parseRecordId(app.entities.byName.get(name)!, (request.params as Record<string, string>)[param]);
  const actor = (request: FastifyRequest): Actor => ({ userId: request.user.id, ip: request.ip ?? null });
  /** Events mail through the app's mailer, in their cause's transaction (judging-mail.ts). */
  const mail: JudgingMail = { mailer: app.mailer, publicUrl: app.config.publicUrl };
  const exam = idParams('Examination');

  app.post<{ Body: { status: string } }>(
    '/exams/:id/status',
    {
      schema: route('Move an examination to another status (draft → open → closed → final; closed → open). Final stores its locked results.', {
        params: exam,
        body: statusBody,
        response: { 200: statusAnswer },
      }),
    },
    async (request) => ({ data: await moveExamStatus(db, app.entities, idOf('exam', request), request.body.status, actor(request), mail) }),
  );

  app.post<{ Body: { per_entry?: number; dry_run?: boolean } }>(
    '/exams/:id/auto-assign',
    {
      schema: route('Plan (dry run) or make the assignments giving every entry K jurors, balanced and without conflicts.', {
        params: exam,
        body: autoAssignBody,
        response: { 200: autoAssignAnswer },
      }),
    },
    async (request) => {
      const options = { perEntry: request.body?.per_entry ?? 3, dryRun: request.body?.dry_run !== false };
      return { data: await autoAssign(db, idOf('exam', request), options, actor(request), mail) };
    },
  );

  app.post<{ Body: { contest_id: number; jury_id: number } }>(
    '/exams/:id/assignments',
    {
      schema: route('Assign a juror an entry of the examination (422 naming each broken rule).', {
        params: exam,
        body: assignmentBody,
        response: { 201: assignmentAnswer },
      }),
    },
    async (request, reply) => reply.code(201).send({ data: await addAssignment(db, idOf('exam', request), request.body, actor(request), mail) }),
  );

  app.delete(
    '/exams/:id/assignments/:assignmentId',
    {
      schema: route('Remove an assignment not yet started.', {
        params: {
          type: 'object',
          required: ['id', 'assignmentId'],
          properties: { ...(exam.properties as object), ...(idParams('Assignment', 'assignmentId').properties as object) },
        },
        response: { 204: noContent },
      }),
    },
    async (request, reply) => {
      await removeAssignment(db, idOf('exam', request), idOf('assignment', request, 'assignmentId'), actor(request));
      return reply.code(204).send();
    },
  );

  app.get(
    '/exams/:id/matrix',
    {
      schema: route("An examination's assignment matrix: entries, jurors, assignments, counts and conflicts.", {
        params: exam,
        response: { 200: matrixAnswer },
      }),
    },
    async (request) => ({ data: await assignmentMatrix(db, idOf('exam', request)) }),
  );

  app.get<{ Querystring: { exam_id?: number } }>(
    '/judging/progress',
    {
      schema: route('Grading progress per examination, juror and category round (all examinations, or one).', {
        querystring: progressQuery,
        response: { 200: progressAnswer },
      }),
    },
    async (request) => ({ data: await judgingProgress(db, request.query.exam_id) }),
  );

  app.post<{ Body: { exam_id?: number } | null }>(
    '/judging/reminders',
    {
      schema: route('Mail a reminder to every juror with work left in open examinations (or in one).', {
        body: remindersBody,
        response: { 200: remindersAnswer },
      }),
    },
    async (request) => ({ data: await sendReminders(db, mail, request.body?.exam_id, actor(request)) }),
  );

  app.post<{ Body: { reason?: string } | null }>(
    '/grades/:id/reopen',
    {
      schema: route("Reopen a submitted grade with a reason (422 'reason_required' without one): back to draft, its juror is told and may change it.", {
        params: idParams('Grade'),
        body: gradeReopenBody,
        response: { 200: gradeAnswer },
      }),
    },
    async (request) => {
      const grade = await reopenGrade(db, idOf('grade', request), request.body?.reason, actor(request), mail);
      // The juror's mail is written with the reopening (grades.service.ts); the log line stays for operators.
      request.log.info(
        { event: 'grade.reopened', grade_id: grade.id, jury_id: grade.jury_id, exam_id: grade.exam_id, reason: grade.reopen_reason },
        'Grade reopened: the juror is to be told, with the reason',
      );
      return { data: grade };
    },
  );
}
