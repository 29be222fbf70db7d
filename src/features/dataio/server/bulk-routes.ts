import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import { fieldKind } from '../../../shared/descriptor/schema-fields.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { writeAudit } from '../../../server/index.js';
import type { SystemTables } from '../../../server/index.js';
import { AppError, badRequest, forbidden } from '../../../server/index.js';
import { storedFields } from '../../../server/index.js';
import { filteredQuery } from '../../../server/index.js';
import { remove } from '../../../server/index.js';
import { update } from '../../../server/index.js';
import { parseExportQuery } from './export-rows.js';

/** Ids a bulk request acts on at most (the client sends them in chunks for progress). */
const MAX_IDS = 500;
/** Ids `GET .../ids` answers at most ("all N matching"). */
const MAX_MATCHING = 100_000;

/** The fields an entity lets set in bulk: the descriptor's `bulk.set` that the edit form writes. */
export function bulkFields(entity: LoadedEntity): string[] {
  return (entity.descriptor.bulk?.set ?? []).filter((field) => entity.descriptor.forms.edit.fields.includes(field));
}

/**
 * Bulk actions on a list:
 * - `GET /api/<endpoint>/ids?<list query>`: the ids of every record matching the list's filters,
 *   in its order ("all N matching"), at most 100,000;
 * - `POST /api/<endpoint>/bulk {action: 'delete' | 'set', ids, field?, value?}`: each record goes
 *   through the same operation as one at a time (a delete refused because the record is in use,
 *   an invalid value), so one refused row is reported by id and the others are done. Audited.
 */
export async function bulkRoutes(app: FastifyInstance) {
  const ctx = () => ({ db: app.db, registry: app.entities });
  for (const entity of app.entities.entities) {
    const d = entity.descriptor;
    if (d.permissions.list.length === 0) continue;
    app.get(`/${d.endpoint}/ids`, async (request) => {
      if (!canPerform(entity, 'list', request.user?.role)) throw forbidden();
      const parsed = parseExportQuery(entity, request.query as Record<string, unknown>, ctx());
      const rows = await filteredQuery(entity, parsed, ctx())
        .select('id')
        .orderBy(parsed.sort, parsed.direction)
        .$if(parsed.sort !== 'id', (q) => q.orderBy('id', parsed.direction))
        .limit(MAX_MATCHING)
        .execute();
      return { data: rows.map((row) => row.id as number) };
    });

    if (d.permissions.delete.length === 0 && d.permissions.update.length === 0) continue;
    app.post(`/${d.endpoint}/bulk`, async (request: FastifyRequest) => {
      const body = (request.body ?? {}) as { action?: unknown; ids?: unknown; field?: unknown; value?: unknown };
      const ids = body.ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS || !ids.every((id) => Number.isSafeInteger(id) && id > 0)) {
        throw badRequest(`ids must be a list of 1 to ${MAX_IDS} record ids.`);
      }
      const failed: Array<{ id: number; code: string; message: string; keyword?: string; messageKey?: string; params?: Record<string, unknown> }> = [];
      let done = 0;
      const record = async (id: number, work: () => Promise<unknown>) => {
        try {
          await work();
          done++;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          const first = error.errors?.[0];
          const messageKey = first?.messageKey ?? (error.code === 'CONFLICT' ? 'dataio.bulk.errors.in_use' : error.code === 'NOT_FOUND' ? 'dataio.bulk.errors.not_found' : undefined);
          failed.push({ id, code: error.code, message: error.message, keyword: first?.keyword, messageKey, params: first?.params });
        }
      };
      if (body.action === 'delete') {
        if (!canPerform(entity, 'delete', request.user?.role)) throw forbidden();
        for (const id of ids as number[]) await record(id, () => remove(entity, id, ctx()));
      } else if (body.action === 'set') {
        if (!canPerform(entity, 'update', request.user?.role)) throw forbidden();
        const field = body.field;
        if (typeof field !== 'string' || !bulkFields(entity).includes(field)) {
          throw badRequest(`The field cannot be set in bulk. Allowed: ${bulkFields(entity).join(', ') || 'none'}.`);
        }
        const kind = fieldKind(entity.schema.properties![field]!);
        if (!(kind === 'boolean' ? typeof body.value === 'boolean' : kind === 'enum' && (entity.schema.properties![field]!.enum as unknown[]).includes(body.value))) {
          throw badRequest(`The value is not one ${field} may take.`);
        }
        const edit = d.forms.edit.fields.filter((name) => storedFields(entity).includes(name));
        for (const id of ids as number[]) {
          await record(id, async () => {
            const current = (await (app.db as Kysely<any>).selectFrom(d.table).select(edit).where('id', '=', id).executeTakeFirst()) as Record<string, unknown> | undefined;
            if (!current) throw new AppError(404, 'NOT_FOUND', `${d.label} ${id} not found.`);
            // The record's edit form as stored (empty fields left out: absent keeps them), with the one field changed.
            const form = Object.fromEntries(Object.entries(current).filter(([, value]) => value !== null));
            await update(entity, { id, body: { ...form, [field]: body.value } }, ctx());
          });
        }
      } else {
        throw badRequest('action must be delete or set.');
      }
      if (done > 0) {
        await writeAudit(app.db as unknown as Kysely<SystemTables>, {
          action: body.action === 'delete' ? 'data.bulk_delete' : 'data.bulk_update',
          userId: request.user?.id,
          ip: request.ip,
          entity: d.name,
          details: { ids: (ids as number[]).filter((id) => !failed.some((f) => f.id === id)), ...(body.action === 'set' ? { field: body.field, value: body.value } : {}) },
        });
      }
      return { data: { done, failed } };
    });
  }
}
