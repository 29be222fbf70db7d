import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, forbidden, parseRecordId } from '../../../server/index.js';
import type { Role } from '../../../shared/roles.js';
import { type GradeInput, saveGrade } from './grades.service.js';
import { BLIND_ENTRY_FIELDS, jurorHeader, juryIdOfUser, juryWork, recuse } from './jury-portal.service.js';
import { gradeBody, idParams, jurorGradeAnswer, juryMeAnswer, juryQuery, juryWorkAnswerFor, recuseAnswer, recuseBody, route } from './schemas.js';
import { judgingDb } from './tables.js';

const JUROR = { roles: ['juror', 'admin'] as Role[] };

/**
 * The jury portal's API, open to jurors (their own work, blind) and to admins (read
 * only, "view as" any juror with `?jury_id=`). Grades are written only by the assigned juror
 * (see docs/architecture.md, "Blind judging"). The answers' schemas list the entry's blind fields
 * only: nothing naming the entrant can leave through them.
 */
/** Entry fields that name the entrant or are theirs alone: never shown to jurors, whatever a descriptor says. */
const NEVER_TO_JURORS: readonly string[] = ['customer_id', 'campaign_id', 'edition_id', 'confidential_kpi', 'other', 'status'];

export async function juryRoutes(app: FastifyInstance) {
  const db = judgingDb(app.db);
  const assignmentId = (request: FastifyRequest) => parseRecordId(app.entities.byName.get('assignment')!, (request.params as { id: string }).id);
  const ownJury = async (request: FastifyRequest) => {
    if (request.user.role !== 'juror') return null;
    const juryId = await juryIdOfUser(db, request.user.id);
    if (!juryId) throw forbidden('This account is not linked to a juror.');
    return juryId;
  };
  const assignment = idParams('Assignment');
  // Entry fields the entry descriptor's portal form adds for jurors (an added question), text
  // fields only and never one that names the entrant.
  const contest = app.entities.byName.get('contest');
  const jurorFields = (contest?.descriptor.forms.portal?.jurorFields ?? []).filter(
    (field) =>
      !(BLIND_ENTRY_FIELDS as readonly string[]).includes(field) &&
      !NEVER_TO_JURORS.includes(field) &&
      [contest?.schema.properties?.[field]?.type].flat().includes('string'),
  );

  app.get<{ Querystring: { jury_id?: number } }>(
    '/jury/assignments',
    {
      config: JUROR,
      schema: route(
        "A juror's work, blind: their examinations with progress and each assignment with the entry's content and their own grade. An admin views it read-only with jury_id.",
        {
          querystring: juryQuery,
          response: { 200: juryWorkAnswerFor(jurorFields) },
        },
      ),
    },
    async (request) => {
      const own = await ownJury(request);
      const juryId = own ?? request.query.jury_id;
      if (!juryId) throw badRequest('An admin views the portal as a juror: give jury_id.');
      if (own && request.query.jury_id && request.query.jury_id !== own) throw forbidden();
      return { data: { ...(await juryWork(db, juryId, jurorFields)), read_only: own === null } };
    },
  );

  app.put<{ Body: GradeInput }>(
    '/assignments/:id/grade',
    {
      config: JUROR,
      schema: route("Save the juror's grade of an assignment (a draft, or submitted); the total is computed on the server.", {
        params: assignment,
        body: gradeBody,
        response: { 200: jurorGradeAnswer },
      }),
    },
    async (request) => {
      const own = await ownJury(request);
      if (own === null) throw forbidden('Only the assigned juror writes a grade; admins view it read-only.');
      const scores = Object.fromEntries(Object.entries(request.body.scores).filter(([, v]) => v !== null)) as Record<string, number>;
      const grade = await saveGrade(db, {
        assignmentId: assignmentId(request),
        juryId: own,
        userId: request.user.id,
        ip: request.ip ?? null,
        body: { ...request.body, scores },
      });
      return { data: grade };
    },
  );

  app.post<{ Body: { reason: string } }>(
    '/assignments/:id/recuse',
    {
      config: JUROR,
      schema: route('Recuse from an assignment, with a reason (the juror, or an admin for them).', {
        params: assignment,
        body: recuseBody,
        response: { 200: recuseAnswer },
      }),
    },
    async (request) => {
      const own = await ownJury(request);
      return {
        data: await recuse(db, {
          assignmentId: assignmentId(request),
          juryId: own,
          reason: request.body.reason,
          userId: request.user.id,
          ip: request.ip ?? null,
        }),
      };
    },
  );

  // The juror's own name for the portal header (no other juror's data).
  app.get(
    '/jury/me',
    { config: JUROR, schema: route("The signed-in juror's name and round (null for an admin).", { response: { 200: juryMeAnswer } }) },
    async (request) => {
      const juryId = await ownJury(request);
      return { data: juryId ? await jurorHeader(db, juryId) : null };
    },
  );
}
