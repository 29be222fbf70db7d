import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { auditEntityWrite } from '../history/entity-audit.js';
import { type OperationContext, selectionOf } from './context.js';
import { validateWriteBody } from './write-body.js';
import { runBeforeWrite, toColumnValues, uniqueConflict } from './write-helpers.js';

/**
 * Creates a record from a request body: validated against the create schema (every error at once,
 * 422), schema defaults filled, `beforeWrite` hooks run, virtual fields dropped, stored and audited in one
 * transaction. Returns the stored record without write-only fields.
 *
 * @throws AppError 422 for an invalid body, 409 for a unique clash.
 */
export async function create(entity: LoadedEntity, body: unknown, ctx: OperationContext): Promise<Record<string, unknown>> {
  const data = validateWriteBody(entity, body, 'create');
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await runBeforeWrite({ entity, operation: 'create', data, db: trx, userId: ctx.actor?.userId ?? null });
      const record = (await trx
        .insertInto(entity.descriptor.table)
        .values(toColumnValues(entity, data))
        .returning(selectionOf(entity, ctx.registry))
        .executeTakeFirstOrThrow()) as Record<string, unknown>;
      await auditEntityWrite(trx, ctx, entity, 'create', record.id, null, record);
      return record;
    });
  } catch (error) {
    throw uniqueConflict(entity, error);
  }
}
