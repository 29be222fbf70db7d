import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, forbidden, parseRecordId } from '../../../server/index.js';
import type { Role } from '../../../shared/roles.js';
import type { JuryConflictInput } from '../shared/season-types.js';
import { examEntries } from './admin-views.js';
import { addConflict, declareEntryConflict, listConflicts, removeConflict } from './conflicts.service.js';
import type { Actor } from './judging-audit.js';
import { juryIdOfUser } from './jury-portal.service.js';
import { getPanel, setPanel } from './panels.service.js';
import { idParams, noContent, route } from './schemas.js';
import {
  conflictAnswer,
  conflictBody,
  conflictParams,
  conflictsAnswer,
  entryConflictAnswer,
  entryConflictBody,
  examEntriesAnswer,
  panelAnswer,
  panelBody,
} from './season-schemas.js';
import { judgingDb } from './tables.js';

const JUROR_ONLY = { roles: ['juror'] as Role[] };
const MAX_ID = 2147483647;

/**
 * A season's judging routes (§17): an exam's eligible entries and its panel, a juror's declared
 * conflicts (admins), and "I know this entry" (the assigned juror). Every write is audited in its
 * transaction (see the services); routes without a role config are admins' only.
 */
export async function seasonRoutes(app: FastifyInstance) {
  const db = judgingDb(app.db);
  const idOf = (name: string, request: FastifyRequest) => parseRecordId(app.entities.byName.get(name)!, (request.params as { id: string }).id);
  const actor = (request: FastifyRequest): Actor => ({ userId: request.user.id, ip: request.ip ?? null });
  const exam = idParams('Examination');
  const juror = idParams('Juror');

  app.get(
    '/exams/:id/entries',
    {
      schema: route("An examination's eligible entries: Round 1 the approved entries of its category and edition, a later round those shortlisted into it.", {
        params: exam,
        response: { 200: examEntriesAnswer },
      }),
    },
    async (request) => ({ data: await examEntries(db, idOf('exam', request)) }),
  );

  app.get(
    '/exams/:id/panel',
    {
      schema: route("An examination's panel: the jurors auto-assign draws from, with every active juror's load in the exam and its edition.", {
        params: exam,
        response: { 200: panelAnswer },
      }),
    },
    async (request) => ({ data: await getPanel(db, idOf('exam', request)) }),
  );

  app.put<{ Body: { jury_ids: number[] } }>(
    '/exams/:id/panel',
    {
      schema: route("Save an examination's panel (active jurors; 422 naming unknown or inactive ones, 409 once final).", {
        params: exam,
        body: panelBody,
        response: { 200: panelAnswer },
      }),
    },
    async (request) => ({ data: await setPanel(db, idOf('exam', request), request.body.jury_ids, actor(request)) }),
  );

  app.get(
    '/juries/:id/conflicts',
    { schema: route("A juror's declared conflicts of interest (company, entry or brand).", { params: juror, response: { 200: conflictsAnswer } }) },
    async (request) => ({ data: await listConflicts(db, idOf('jury', request)) }),
  );

  app.post<{ Body: JuryConflictInput }>(
    '/juries/:id/conflicts',
    {
      schema: route('Declare a conflict of interest for a juror: with a company or brand (by name) or an entry, with a reason.', {
        params: juror,
        body: conflictBody,
        response: { 201: conflictAnswer },
      }),
    },
    async (request, reply) => reply.code(201).send({ data: await addConflict(db, idOf('jury', request), request.body, actor(request)) }),
  );

  app.delete<{ Params: { id: string; conflictId: string } }>(
    '/juries/:id/conflicts/:conflictId',
    { schema: route("Withdraw a juror's declared conflict.", { params: conflictParams, response: { 204: noContent } }) },
    async (request, reply) => {
      const raw = request.params.conflictId;
      if (!/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > MAX_ID) throw badRequest('Invalid conflict ID');
      await removeConflict(db, idOf('jury', request), Number(raw), actor(request));
      return reply.code(204).send();
    },
  );

  app.post<{ Body: { reason: string } }>(
    '/assignments/:id/conflict',
    {
      config: JUROR_ONLY,
      schema: route('"I know this entry": the assigned juror declares a conflict with the entry and recuses from it, with a reason.', {
        params: idParams('Assignment'),
        body: entryConflictBody,
        response: { 200: entryConflictAnswer },
      }),
    },
    async (request) => {
      const juryId = await juryIdOfUser(db, request.user.id);
      if (!juryId) throw forbidden('This account is not linked to a juror.');
      return {
        data: await declareEntryConflict(db, {
          assignmentId: idOf('assignment', request),
          juryId,
          reason: request.body.reason,
          userId: request.user.id,
          ip: request.ip ?? null,
        }),
      };
    },
  );
}
