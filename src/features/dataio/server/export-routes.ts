import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import { writeAudit } from '../../../server/index.js';
import type { SystemTables } from '../../../server/index.js';
import { badRequest, forbidden } from '../../../server/index.js';
import type { CountRequest } from '../../../server/index.js';
import { groupedCounts } from '../../../server/index.js';
import { filteredQuery } from '../../../server/index.js';
import { CONTENT_TYPES, csvStream, type ExportFormat, xlsxStream } from './export-file.js';
import { copyCsvStream, copyStatement } from './export-copy.js';
import { exportBatches, exportColumns, exportLanguage, exportQuery, parseExportQuery } from './export-rows.js';

/**
 * `GET /api/<endpoint>/export?format=csv|xlsx&lang=` with the list's own query parameters (filters,
 * search, sort and direction): the whole filtered list as a file, streamed. The total goes first
 * in `X-Total-Count` so the browser can show progress. Needs the list permission. On PostgreSQL a
 * CSV comes from `COPY ... TO STDOUT` (export-copy.ts) and an XLSX from one server-side cursor; on
 * PGlite both read keyset batches (export-rows.ts).
 */
export async function exportRoutes(app: FastifyInstance) {
  for (const entity of app.entities.entities) {
    if (entity.descriptor.permissions.list.length === 0) continue;
    app.get(`/${entity.descriptor.endpoint}/export`, async (request, reply) => {
      if (!canPerform(entity, 'list', request.user?.role)) throw forbidden();
      const query = request.query as Record<string, unknown>;
      const format = query.format ?? 'csv';
      if (format !== 'csv' && format !== 'xlsx') throw badRequest('The query parameter format must be csv or xlsx.');
      const ctx = { db: app.db, registry: app.entities };
      const parsed = parseExportQuery(entity, query, ctx);
      const language = exportLanguage(query.lang, request.headers['accept-language']);
      const columns = exportColumns(entity, language);
      const countRequest: CountRequest = {
        entity,
        filtered: parsed.filters.length > 0 || parsed.search !== undefined,
        query: filteredQuery(entity, parsed, ctx).select('id'),
        db: app.db,
        filters: parsed.filters,
        search: parsed.search,
      };
      const total = await groupedCounts.count(countRequest);
      await writeAudit(app.db as unknown as Kysely<SystemTables>, {
        action: 'data.export',
        userId: request.user?.id,
        ip: request.ip,
        entity: entity.descriptor.name,
        details: { format, total, query: parsed.filters.map((f) => f.filter.param), search: Boolean(parsed.search) },
      });
      const postgres = app.database.kind === 'postgres' && app.config.databaseUrl;
      const body =
        format === 'csv' && postgres
          ? await copyCsvStream(postgres, copyStatement(entity, parsed, columns, exportQuery(entity, parsed, columns, ctx), ctx), columns.map((c) => c.header))
          : null;
      const stamp = new Date().toISOString().slice(0, 10);
      reply
        .type(CONTENT_TYPES[format as ExportFormat])
        .header('content-disposition', `attachment; filename="${entity.descriptor.endpoint}-${stamp}.${format}"`)
        .header('x-total-count', String(total));
      if (body) return reply.send(body);
      const batches = exportBatches(entity, parsed, columns, ctx, { cursor: app.database.kind === 'postgres' });
      return reply.send(format === 'csv' ? csvStream(columns, batches) : xlsxStream(entity.descriptor.endpoint, columns, batches));
    });
  }
}
