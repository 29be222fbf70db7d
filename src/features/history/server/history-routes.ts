import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, emptyTrash, forbidden, NO_BODY_SCHEMA, parseRecordId, restoreFromTrash } from '../../../server/index.js';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import { auditCsv, auditPage } from './audit.service.js';
import { instant, onlyKnown, positive, type Query, text } from './query-params.js';
import {
  auditAnswer,
  auditQuery,
  deletedAnswer,
  historyAnswer,
  historyQuery,
  recordParams,
  restoreAnswer,
  route,
  trashAnswer,
  trashItemParams,
  trashQuery,
  validatedByHandler,
} from './schemas.js';
import { trashPage } from './trash.service.js';

const MAX_PER_PAGE = 100;

const actorOf = (request: FastifyRequest) => ({ userId: request.user?.id ?? null, ip: request.ip ?? null });

/**
 * History: a record's history, the audit log (admins; filtered, paged, CSV), the trash
 * and restore. Registered under `/api`. The queries are in audit.service.ts and trash.service.ts
 * (the trash itself is the server's: deletes move records there).
 */
export async function historyRoutes(app: FastifyInstance) {
  const adminOnly = async (request: FastifyRequest) => {
    if (request.user?.role !== 'admin') throw forbidden();
  };
  const ctx = (request: FastifyRequest) => ({ db: app.db, registry: app.entities, actor: actorOf(request) });
  const checked = { validatorCompiler: validatedByHandler };

  for (const entity of app.entities.entities) {
    const d = entity.descriptor;
    if (d.permissions.read.length > 0) {
      app.get(
        `/${d.endpoint}/:id/history`,
        {
          ...checked,
          schema: route(`A ${d.label}'s history: its audit rows, newest first, paged.`, {
            params: recordParams(d.label),
            querystring: historyQuery,
            response: { 200: historyAnswer },
          }),
          preHandler: async (request) => {
            if (!canPerform(entity, 'read', request.user?.role)) throw forbidden();
          },
        },
        async (request) => {
          const id = parseRecordId(entity, (request.params as { id?: string }).id);
          const query = request.query as Query;
          onlyKnown(query, ['page', 'per_page']);
          return auditPage(app.db, { entity: d.name, entityId: String(id) }, positive(query, 'page', 1), positive(query, 'per_page', 20, MAX_PER_PAGE));
        },
      );
    }
    if (d.permissions.delete.length > 0) {
      app.post(
        `/${d.endpoint}/:id/restore`,
        {
          ...checked,
          schema: route(`Restore a deleted ${d.label} from the trash, with the links its delete emptied.`, {
            params: recordParams(d.label),
            body: NO_BODY_SCHEMA,
            response: { 200: restoreAnswer(entity, app.entities) },
          }),
          preHandler: async (request) => {
            if (!canPerform(entity, 'delete', request.user?.role)) throw forbidden();
          },
        },
        async (request) => {
          const id = parseRecordId(entity, (request.params as { id?: string }).id);
          return { data: await restoreFromTrash(entity, id, ctx(request)) };
        },
      );
    }
  }

  app.get(
    '/audit',
    {
      ...checked,
      preHandler: adminOnly,
      schema: route('The audit log, newest first: filtered, paged, or as CSV.', { querystring: auditQuery, response: { 200: auditAnswer } }),
    },
    async (request, reply) => {
      const query = request.query as Query;
      onlyKnown(query, ['page', 'per_page', 'user_id', 'entity', 'entity_id', 'action', 'from', 'to', 'format']);
      const format = text(query, 'format', 10);
      if (format && format !== 'csv' && format !== 'json') throw badRequest('Invalid format: csv or json.');
      const filter = {
        userId: query.user_id === undefined || query.user_id === '' ? undefined : positive(query, 'user_id', 0),
        entity: text(query, 'entity'),
        entityId: text(query, 'entity_id', 20),
        action: text(query, 'action'),
        from: instant(query, 'from'),
        to: instant(query, 'to'),
      };
      if (format !== 'csv') return auditPage(app.db, filter, positive(query, 'page', 1), positive(query, 'per_page', 25, MAX_PER_PAGE));
      const csv = await auditCsv(app.db, filter);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/trash',
    {
      ...checked,
      preHandler: adminOnly,
      schema: route('Deleted records of the last 30 days, newest first, paged.', { querystring: trashQuery, response: { 200: trashAnswer } }),
    },
    async (request) => {
      const query = request.query as Query;
      onlyKnown(query, ['page', 'per_page', 'entity']);
      return trashPage(app.db, app.entities, {
        page: positive(query, 'page', 1),
        perPage: positive(query, 'per_page', 25, MAX_PER_PAGE),
        entity: text(query, 'entity'),
      });
    },
  );

  app.delete('/trash', { preHandler: adminOnly, schema: route('Empty the trash for good.', { response: { 200: deletedAnswer } }) }, async (request) => ({
    data: { deleted: await emptyTrash(app.db, actorOf(request)) },
  }));
  app.delete(
    '/trash/:id',
    { ...checked, preHandler: adminOnly, schema: route('Delete one trash item for good.', { params: trashItemParams, response: { 200: deletedAnswer } }) },
    async (request) => {
      const raw = String((request.params as { id?: string }).id ?? '');
      if (raw.length > 15 || !/^[1-9][0-9]*$/.test(raw)) throw badRequest('Invalid trash item ID');
      return { data: { deleted: await emptyTrash(app.db, actorOf(request), [Number(raw)]) } };
    },
  );
}
