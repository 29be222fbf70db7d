import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { EXAM_MOVES, canMoveExam } from '../shared/exam-status.js';
import { conflict, notFound, validationFailed } from '../../../server/index.js';
import { parseRecordId } from '../../../server/index.js';
import { planAutoAssign } from './auto-assign.js';
import { assignmentMatrix, judgingProgress, jurorsWithWorkLeft } from './admin-views.js';
import { reopenGrade } from './grades.js';
import { writeJudgingAudit } from './judging-audit.js';
import { translate } from '../../../server/index.js';
import { moveExamStatus } from './exams.service.js';
import { checkAssignment, ruleErrors } from './hooks/assignment-rules.js';

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: false, properties, required });

/**
 * The admins' judging actions: an exam's status, auto-assign, its assignment matrix,
 * progress, reminders, and reopening a submitted grade. Every write is audited in its transaction.
 */
export async function judgingRoutes(app: FastifyInstance) {
  const entity = (name: string) => app.entities.byName.get(name)!;
  const idOf = (name: string, request: FastifyRequest) => parseRecordId(entity(name), (request.params as { id: string }).id);

  app.post<{ Body: { status: string } }>(
    '/exams/:id/status',
    { schema: { body: obj({ status: { type: 'string', enum: Object.keys(EXAM_MOVES) } }, ['status']) } },
    async (request) => ({ data: await moveExamStatus(app.db, app.entities, idOf('exam', request), request.body.status, { userId: request.user.id, ip: request.ip ?? null }) }),
  );

  app.post<{ Body: { per_entry?: number; dry_run?: boolean } }>(
    '/exams/:id/auto-assign',
    { schema: { body: obj({ per_entry: { type: 'integer', minimum: 1, maximum: 20, default: 3 }, dry_run: { type: 'boolean', default: true } }) } },
    async (request) => {
      const id = idOf('exam', request);
      const perEntry = request.body?.per_entry ?? 3;
      const dryRun = request.body?.dry_run !== false;
      return app.db.transaction().execute(async (trx) => {
        // The exam's row lock serialises runs: a second run plans only after the first has saved.
        const exam = (await sql<{ id: number; category_id: number; round: number; status: string }>`
          select id, category_id, round, status from exams where id = ${id} for update`.execute(trx)).rows[0];
        if (!exam) throw notFound('Examination not found.');
        if (exam.status !== 'draft' && exam.status !== 'open') {
          throw conflict('Jurors can be assigned only while the examination is a draft or open.', [{ path: '', keyword: 'exam_locked', messageKey: 'judging.rules.exam_locked', params: {} }]);
        }
        const plan = await planAutoAssign(trx, exam, perEntry);
        if (!dryRun && plan.planned.length > 0) {
          for (let i = 0; i < plan.planned.length; i += 500) {
            const chunk = plan.planned.slice(i, i + 500);
            const values = chunk.map((p) => sql`(${id}, ${p.contest_id}, ${p.jury_id}, 'assigned')`);
            await sql`insert into assignments (exam_id, contest_id, jury_id, status) values ${sql.join(values)}
              on conflict (exam_id, contest_id, jury_id) do nothing`.execute(trx);
          }
          await writeJudgingAudit(trx, { action: 'exam.auto_assign', userId: request.user.id, entity: 'exam', entityId: id, ip: request.ip, details: { per_entry: perEntry, added: plan.planned.length, short: plan.short.length } });
        }
        return { data: { exam_id: id, per_entry: perEntry, dry_run: dryRun, ...plan } };
      });
    },
  );

  const idProperty = { type: 'integer', minimum: 1, maximum: 2147483647 };
  app.post<{ Body: { contest_id: number; jury_id: number } }>(
    '/exams/:id/assignments',
    { schema: { body: obj({ contest_id: idProperty, jury_id: idProperty }, ['contest_id', 'jury_id']) } },
    async (request, reply) => {
      const examId = idOf('exam', request);
      const ids = { exam_id: examId, contest_id: request.body.contest_id, jury_id: request.body.jury_id };
      const row = await app.db.transaction().execute(async (trx) => {
        await sql`select id from exams where id = ${examId} for update`.execute(trx);
        const found = (await sql<{ e: boolean; c: boolean; j: boolean }>`select
          exists (select 1 from exams where id = ${examId}) as e, exists (select 1 from contests where id = ${ids.contest_id}) as c,
          exists (select 1 from juries where id = ${ids.jury_id}) as j`.execute(trx)).rows[0]!;
        if (!found.e) throw notFound('Examination not found.');
        const missing = [!found.c && 'contest_id', !found.j && 'jury_id'].filter(Boolean) as string[];
        if (missing.length) throw validationFailed(missing.map((path) => ({ path, keyword: 'exists', messageKey: 'judging.errors.record_missing', params: {} })));
        const broken = await checkAssignment(trx, ids);
        if (broken.length > 0) {
          const { errors, message } = ruleErrors(broken);
          throw validationFailed(errors, message);
        }
        const taken = (await sql`select 1 from assignments where exam_id = ${examId} and contest_id = ${ids.contest_id} and jury_id = ${ids.jury_id}`.execute(trx)).rows.length > 0;
        if (taken) throw conflict('This juror is already assigned this entry.', [{ path: 'jury_id', keyword: 'unique', messageKey: 'validation.unique', params: {} }]);
        const created = (await sql<{ id: number }>`insert into assignments (exam_id, contest_id, jury_id, status) values (${examId}, ${ids.contest_id}, ${ids.jury_id}, 'assigned')
          returning id, exam_id, contest_id, jury_id, status, recuse_reason, created_at, updated_at`.execute(trx)).rows[0]!;
        await writeJudgingAudit(trx, { action: 'assignment.create', userId: request.user.id, entity: 'assignment', entityId: created.id, ip: request.ip, details: ids });
        return created;
      });
      return reply.code(201).send({ data: row });
    },
  );

  app.delete('/exams/:id/assignments/:assignmentId', async (request, reply) => {
    const examId = idOf('exam', request);
    const assignmentId = parseRecordId(entity('assignment'), (request.params as { assignmentId: string }).assignmentId);
    await app.db.transaction().execute(async (trx) => {
      const row = (await sql<{ status: string; exam_status: string }>`select a.status, e.status as exam_status from assignments a join exams e on e.id = a.exam_id
        where a.id = ${assignmentId} and a.exam_id = ${examId} for update of a`.execute(trx)).rows[0];
      if (!row) throw notFound('Assignment not found.');
      if (row.exam_status === 'final') throw conflict('The examination is final.');
      if (row.status !== 'assigned') {
        throw conflict('Only an assignment not yet started can be removed.', [{ path: 'status', keyword: 'started', messageKey: 'judging.errors.assignment_started', params: { status: row.status } }]);
      }
      await sql`delete from assignments where id = ${assignmentId}`.execute(trx);
      await writeJudgingAudit(trx, { action: 'assignment.delete', userId: request.user.id, entity: 'assignment', entityId: assignmentId, ip: request.ip, details: { exam_id: examId } });
    });
    return reply.code(204).send();
  });

  app.get('/exams/:id/matrix', async (request) => ({ data: await assignmentMatrix(app.db, idOf('exam', request)) }));

  app.get<{ Querystring: { exam_id?: number } }>(
    '/judging/progress',
    { schema: { querystring: obj({ exam_id: { type: 'integer', minimum: 1, maximum: 2147483647 } }) } },
    async (request) => ({ data: await judgingProgress(app.db, request.query.exam_id) }),
  );

  app.post<{ Body: { exam_id?: number } }>(
    '/judging/reminders',
    { schema: { body: { type: ['object', 'null'], additionalProperties: false, properties: { exam_id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } } },
    async (request) => {
      const examId = request.body?.exam_id;
      const jurors = await jurorsWithWorkLeft(app.db, examId);
      const portal = `${app.config.publicUrl}/jury`;
      for (const j of jurors) {
        await app.mailer.send({
          to: j.email,
          subject: translate('en', 'judging.reminder.subject'),
          text: translate('en', 'judging.reminder.body', { name: j.name, count: String(j.pending), url: portal }),
        });
      }
      await writeJudgingAudit(app.db, { action: 'jury.reminders', userId: request.user.id, entity: 'exam', entityId: examId ?? 'all', ip: request.ip, details: { jurors: jurors.map((j) => j.jury_id) } });
      return { data: { sent: jurors.length, transport: app.mailer.transport, jurors: jurors.map(({ email: _e, ...rest }) => rest) } };
    },
  );

  app.post('/grades/:id/reopen', async (request) => ({ data: await reopenGrade(app.db, idOf('grade', request), request.user.id, request.ip) }));
}
