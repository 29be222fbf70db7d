import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Role } from '../../../shared/roles.js';
import { badRequest, forbidden } from '../../../server/index.js';
import { parseRecordId } from '../../../server/index.js';
import { type GradeInput, saveGrade } from './grades.js';
import { juryIdOfUser, juryWork, recuse } from './jury-portal.js';

const JUROR = { roles: ['juror', 'admin'] as Role[] };
const MAX_ID = 2147483647;

/**
 * The jury portal's API, open to jurors (their own work, blind) and to admins (read
 * only, "view as" any juror with `?jury_id=`). Grades are written only by the assigned juror
 * (see docs/architecture.md, "Blind judging").
 */
export async function juryRoutes(app: FastifyInstance) {
  const assignmentId = (request: FastifyRequest) => parseRecordId(app.entities.byName.get('assignment')!, (request.params as { id: string }).id);
  const ownJury = async (request: FastifyRequest) => {
    if (request.user.role !== 'juror') return null;
    const juryId = await juryIdOfUser(app.db, request.user.id);
    if (!juryId) throw forbidden('This account is not linked to a juror.');
    return juryId;
  };

  app.get<{ Querystring: { jury_id?: number } }>(
    '/jury/assignments',
    { config: JUROR, schema: { querystring: { type: 'object', additionalProperties: false, properties: { jury_id: { type: 'integer', minimum: 1, maximum: MAX_ID } } } } },
    async (request) => {
      const own = await ownJury(request);
      const juryId = own ?? request.query.jury_id;
      if (!juryId) throw badRequest('An admin views the portal as a juror: give jury_id.');
      if (own && request.query.jury_id && request.query.jury_id !== own) throw forbidden();
      return { data: { ...(await juryWork(app.db, juryId)), read_only: own === null } };
    },
  );

  const scoresSchema = { type: 'object', maxProperties: 20, propertyNames: { maxLength: 40 }, additionalProperties: { type: ['number', 'null'] } };
  app.put<{ Body: GradeInput }>(
    '/assignments/:id/grade',
    {
      config: JUROR,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['scores'],
          properties: { scores: scoresSchema, remarks: { type: ['string', 'null'], maxLength: 2000 }, submit: { type: 'boolean', default: false } },
        },
      },
    },
    async (request) => {
      const own = await ownJury(request);
      if (own === null) throw forbidden('Only the assigned juror writes a grade; admins view it read-only.');
      const scores = Object.fromEntries(Object.entries(request.body.scores).filter(([, v]) => v !== null)) as Record<string, number>;
      const grade = await saveGrade(app.db, { assignmentId: assignmentId(request), juryId: own, userId: request.user.id, ip: request.ip, body: { ...request.body, scores } });
      return { data: grade };
    },
  );

  app.post<{ Body: { reason: string } }>(
    '/assignments/:id/recuse',
    { config: JUROR, schema: { body: { type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: { type: 'string', maxLength: 500 } } } } },
    async (request) => {
      const own = await ownJury(request);
      return { data: await recuse(app.db, { assignmentId: assignmentId(request), juryId: own, reason: request.body.reason, userId: request.user.id, ip: request.ip }) };
    },
  );

  // The juror's own account name for the portal header (no other juror's data).
  app.get('/jury/me', { config: JUROR }, async (request) => {
    const juryId = await ownJury(request);
    const row = juryId ? (await sql<{ id: number; name: string; round: number }>`select id, name, round from juries where id = ${juryId}`.execute(app.db)).rows[0] : null;
    return { data: row ?? null };
  });
}
