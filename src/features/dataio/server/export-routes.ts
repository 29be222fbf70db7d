import type { FastifyInstance } from 'fastify';
import { exportList } from './export.service.js';
import { exportAnswer, exportExtra, listFilterQuery, route, validatedByHandler } from './schemas.js';

/**
 * `GET /api/<endpoint>/export?format=csv|xlsx&lang=` with the list's own query parameters (filters,
 * search, sort and direction): the whole filtered list as a file, streamed (export.service.ts). The
 * total goes first in `X-Total-Count` so the browser can show progress. Needs the list permission.
 */
export async function exportRoutes(app: FastifyInstance) {
  for (const entity of app.entities.entities) {
    if (entity.descriptor.permissions.list.length === 0) continue;
    app.get(
      `/${entity.descriptor.endpoint}/export`,
      {
        validatorCompiler: validatedByHandler,
        schema: route(`The whole filtered list of ${entity.descriptor.endpoint} as a CSV or XLSX file (streamed).`, {
          querystring: listFilterQuery(entity, app.entities, exportExtra),
          response: { 200: exportAnswer },
        }),
      },
      async (request, reply) => {
        const file = await exportList(
          entity,
          { query: request.query as Record<string, unknown>, acceptLanguage: request.headers['accept-language'] },
          { role: request.user?.role, userId: request.user?.id ?? null, ip: request.ip ?? null },
          { db: app.db, registry: app.entities },
          { postgres: app.database.kind === 'postgres', databaseUrl: app.config.databaseUrl },
        );
        reply.type(file.contentType).header('content-disposition', `attachment; filename="${file.fileName}"`).header('x-total-count', String(file.total));
        return reply.send(file.body);
      },
    );
  }
}
