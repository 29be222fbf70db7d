import type { FastifyInstance } from 'fastify';
import { type BulkBody, bulkAction, matchingIds } from './bulk.service.js';
import { bulkAnswer, bulkBody, idsAnswer, listFilterQuery, route, validatedByHandler } from './schemas.js';

/**
 * Bulk actions on a list (bulk.service.ts):
 * - `GET /api/<endpoint>/ids?<list query>`: the ids of every record matching the list's filters,
 *   in its order ("all N matching"), at most 100,000;
 * - `POST /api/<endpoint>/bulk {action: 'delete' | 'set', ids, field?, value?}`: each record goes
 *   through the same operation as one at a time, so one refused row is reported by id and the
 *   others are done. Audited.
 */
export async function bulkRoutes(app: FastifyInstance) {
  const ctx = () => ({ db: app.db, registry: app.entities });
  for (const entity of app.entities.entities) {
    const d = entity.descriptor;
    if (d.permissions.list.length === 0) continue;
    app.get(
      `/${d.endpoint}/ids`,
      {
        validatorCompiler: validatedByHandler,
        schema: route(`The ids of every ${d.endpoint} record matching the list's query, in its order.`, {
          querystring: listFilterQuery(entity, app.entities),
          response: { 200: idsAnswer },
        }),
      },
      async (request) => ({
        data: await matchingIds(entity, request.query as Record<string, unknown>, request.user?.role, {
          ...ctx(),
          actor: { userId: request.user?.id ?? null, ip: request.ip ?? null },
        }),
      }),
    );

    if (d.permissions.delete.length === 0 && d.permissions.update.length === 0) continue;
    app.post(
      `/${d.endpoint}/bulk`,
      {
        validatorCompiler: validatedByHandler,
        schema: route(`Delete ${d.endpoint} records, or set one field of them, each as one at a time would.`, {
          body: bulkBody,
          response: { 200: bulkAnswer },
        }),
      },
      async (request) => ({
        data: await bulkAction(
          entity,
          (request.body ?? {}) as BulkBody,
          { role: request.user?.role, userId: request.user?.id ?? null, ip: request.ip ?? null },
          ctx(),
        ),
      }),
    );
  }
}
