import {
  AppError,
  applyListScope,
  badRequest,
  filteredQuery,
  forbidden,
  listScopeOf,
  type OperationContext,
  remove,
  storedFields,
  update,
  writeAudit,
} from '../../../server/index.js';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import { fieldKind } from '../../../shared/descriptor/schema-fields.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { parseExportQuery } from './export-rows.js';
import { entityDb } from './tables.js';

/** Ids a bulk request acts on at most (the client sends them in chunks for progress). */
export const MAX_IDS = 500;
/** Ids {@link matchingIds} answers at most ("all N matching"). */
const MAX_MATCHING = 100_000;

/** The fields an entity lets set in bulk: the descriptor's `bulk.set` that the edit form writes. */
export function bulkFields(entity: LoadedEntity): string[] {
  return (entity.descriptor.bulk?.set ?? []).filter((field) => entity.descriptor.forms.edit.fields.includes(field));
}

/** The ids of every record matching the list's filters (its query), in its order, at most 100,000. */
export async function matchingIds(entity: LoadedEntity, query: Record<string, unknown>, role: string | undefined, ctx: OperationContext): Promise<number[]> {
  if (!canPerform(entity, 'list', role)) throw forbidden();
  const scope = await listScopeOf({ entity, db: ctx.db, userId: ctx.actor?.userId ?? null });
  const parsed = applyListScope(entity, parseExportQuery(entity, query, ctx), scope);
  const rows = await filteredQuery(entity, parsed, ctx)
    .select('id')
    .orderBy(parsed.sort, parsed.direction)
    .$if(parsed.sort !== 'id', (q) => q.orderBy('id', parsed.direction))
    .limit(MAX_MATCHING)
    .execute();
  return rows.map((row) => row.id as number);
}

/** A record the bulk action could not act on, and why (the operation's error). */
export interface BulkFailure {
  id: number;
  code: string;
  message: string;
  keyword?: string;
  messageKey?: string;
  params?: Record<string, unknown>;
}

/** A bulk request's body. */
export interface BulkBody {
  action?: unknown;
  ids?: unknown;
  field?: unknown;
  value?: unknown;
}

/**
 * A bulk action on records of a list: `delete`, or `set` one field (one the descriptor lets set in
 * bulk) to one value. Each record goes through the same operation as one at a time (a delete
 * refused because the record is in use, an invalid value), so one refused record is reported by id
 * and the others are done. Audited once, with the ids done.
 */
export async function bulkAction(
  entity: LoadedEntity,
  body: BulkBody,
  caller: { role: string | undefined; userId: number | null; ip: string | null },
  ctx: OperationContext,
): Promise<{ done: number; failed: BulkFailure[] }> {
  const d = entity.descriptor;
  const ids = body.ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS || !ids.every((id) => Number.isSafeInteger(id) && id > 0)) {
    throw badRequest(`ids must be a list of 1 to ${MAX_IDS} record ids.`);
  }
  const failed: BulkFailure[] = [];
  let done = 0;
  const record = async (id: number, work: () => Promise<unknown>) => {
    try {
      await work();
      done++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const first = error.errors?.[0];
      const messageKey =
        first?.messageKey ??
        (error.code === 'CONFLICT' ? 'dataio.bulk.errors.in_use' : error.code === 'NOT_FOUND' ? 'dataio.bulk.errors.not_found' : undefined);
      failed.push({ id, code: error.code, message: error.message, keyword: first?.keyword, messageKey, params: first?.params });
    }
  };
  if (body.action === 'delete') {
    if (!canPerform(entity, 'delete', caller.role)) throw forbidden();
    for (const id of ids as number[]) await record(id, () => remove(entity, id, ctx));
  } else if (body.action === 'set') {
    if (!canPerform(entity, 'update', caller.role)) throw forbidden();
    const field = body.field;
    if (typeof field !== 'string' || !bulkFields(entity).includes(field)) {
      throw badRequest(`The field cannot be set in bulk. Allowed: ${bulkFields(entity).join(', ') || 'none'}.`);
    }
    const kind = fieldKind(entity.schema.properties![field]!);
    if (
      !(kind === 'boolean' ? typeof body.value === 'boolean' : kind === 'enum' && (entity.schema.properties![field]!.enum as unknown[]).includes(body.value))
    ) {
      throw badRequest(`The value is not one ${field} may take.`);
    }
    const edit = d.forms.edit.fields.filter((name) => storedFields(entity).includes(name));
    for (const id of ids as number[]) {
      await record(id, async () => {
        const current = await entityDb(ctx.db).selectFrom(d.table).select(edit).where('id', '=', id).executeTakeFirst();
        if (!current) throw new AppError(404, 'NOT_FOUND', `${d.label} ${id} not found.`);
        // The record's edit form as stored (empty fields left out: absent keeps them), with the one field changed.
        const form = Object.fromEntries(Object.entries(current).filter(([, value]) => value !== null));
        await update(entity, { id, body: { ...form, [field]: body.value } }, ctx);
      });
    }
  } else {
    throw badRequest('action must be delete or set.');
  }
  if (done > 0) {
    await writeAudit(ctx.db, {
      action: body.action === 'delete' ? 'data.bulk_delete' : 'data.bulk_update',
      userId: caller.userId,
      ip: caller.ip,
      entity: d.name,
      details: {
        ids: (ids as number[]).filter((id) => !failed.some((f) => f.id === id)),
        ...(body.action === 'set' ? { field: body.field, value: body.value } : {}),
      },
    });
  }
  return { done, failed };
}
