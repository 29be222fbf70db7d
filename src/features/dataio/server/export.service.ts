import type { Readable } from 'node:stream';
import {
  applyListScope,
  badRequest,
  type CountRequest,
  filteredQuery,
  forbidden,
  groupedCounts,
  listScopeOf,
  type OperationContext,
  writeAudit,
} from '../../../server/index.js';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { copyCsvStream, copyStatement } from './export-copy.js';
import { CONTENT_TYPES, csvStream, type ExportFormat, xlsxStream } from './export-file.js';
import { exportBatches, exportColumns, exportLanguage, exportQuery, parseExportQuery } from './export-rows.js';

/** An export ready to stream: its size, its type and name, and its body. */
export interface ExportFile {
  total: number;
  contentType: string;
  fileName: string;
  body: Readable;
}

/**
 * The whole filtered list of an entity as a CSV or XLSX file, streamed (the list's own query
 * parameters: filters, search, sort and direction; `format` and `lang` besides). Needs the list
 * permission; audited with its size. On PostgreSQL (`databaseUrl`) a CSV comes from
 * `COPY ... TO STDOUT` (export-copy.ts) and an XLSX from one server-side cursor; on PGlite both
 * read keyset batches (export-rows.ts).
 */
export async function exportList(
  entity: LoadedEntity,
  request: { query: Record<string, unknown>; acceptLanguage: string | undefined },
  caller: { role: string | undefined; userId: number | null; ip: string | null },
  ctx: OperationContext,
  database: { postgres: boolean; databaseUrl: string | undefined },
): Promise<ExportFile> {
  if (!canPerform(entity, 'list', caller.role)) throw forbidden();
  const { query } = request;
  const format = query.format ?? 'csv';
  if (format !== 'csv' && format !== 'xlsx') throw badRequest('The query parameter format must be csv or xlsx.');
  // The caller's list scope (their current edition...) narrows the export as it narrows the list.
  const parsed = applyListScope(entity, parseExportQuery(entity, query, ctx), await listScopeOf({ entity, db: ctx.db, userId: caller.userId }));
  const language = exportLanguage(query.lang, request.acceptLanguage);
  const columns = exportColumns(entity, language);
  const countRequest: CountRequest = {
    entity,
    filtered: parsed.filters.length > 0 || parsed.search !== undefined,
    query: filteredQuery(entity, parsed, ctx).select('id'),
    db: ctx.db,
    filters: parsed.filters,
    search: parsed.search,
  };
  const total = await groupedCounts.count(countRequest);
  await writeAudit(ctx.db, {
    action: 'data.export',
    userId: caller.userId,
    ip: caller.ip,
    entity: entity.descriptor.name,
    details: { format, total, query: parsed.filters.map((f) => f.filter.param), search: Boolean(parsed.search) },
  });
  const copyFrom = database.postgres && database.databaseUrl;
  const stamp = new Date().toISOString().slice(0, 10);
  const fileName = `${entity.descriptor.endpoint}-${stamp}.${format}`;
  const contentType = CONTENT_TYPES[format as ExportFormat];
  if (format === 'csv' && copyFrom) {
    const body = await copyCsvStream(
      copyFrom,
      copyStatement(entity, parsed, columns, exportQuery(entity, parsed, columns, ctx), ctx),
      columns.map((c) => c.header),
    );
    return { total, contentType, fileName, body };
  }
  const batches = exportBatches(entity, parsed, columns, ctx, { cursor: database.postgres });
  return { total, contentType, fileName, body: format === 'csv' ? csvStream(columns, batches) : xlsxStream(entity.descriptor.endpoint, columns, batches) };
}
