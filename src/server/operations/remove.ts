import type { FieldError } from '../../shared/api-contract.js';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { conflict, isStillReferenced, notFound } from '../errors.js';
import { auditEntityWrite } from '../history/entity-audit.js';
import { moveToTrash } from '../history/trash.js';
import { labelOf, type OperationContext, storedFields } from './context.js';
import { runRemoveGuards } from './remove-guards.js';

/**
 * Deletes a record. Refuses with 409 while records of other entities point at it through a
 * `restrict` relation, naming them and how many (`This category is still used by 3 contests.`).
 * The row goes to the trash (restorable for 30 days with its id and the links a `set-null`
 * relation empties) and the delete is audited, in the same transaction.
 *
 * @throws AppError 404 when absent, 409 when still in use.
 */
export async function remove(entity: LoadedEntity, id: number, ctx: OperationContext): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const existing = (await trx.selectFrom(entity.descriptor.table).select(storedFields(entity)).where('id', '=', id).forUpdate().executeTakeFirst()) as
      | Record<string, unknown>
      | undefined;
    if (!existing) throw notFound(`${labelOf(entity)} not found.`);
    await runRemoveGuards({ entity, record: existing, db: trx, userId: ctx.actor?.userId ?? null });
    const users: string[] = [];
    const items: FieldError[] = [];
    for (const other of ctx.registry.entities) {
      for (const relation of Object.values(other.descriptor.relations)) {
        if (relation.entity !== entity.descriptor.name || relation.onDelete !== 'restrict') continue;
        const row = await trx
          .selectFrom(other.descriptor.table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(relation.field, '=', id)
          .executeTakeFirstOrThrow();
        const n = Number(row.n);
        if (n === 0) continue;
        users.push(`${n} ${n === 1 ? other.descriptor.label : other.descriptor.endpoint.replace(/[-_]/g, ' ')}`);
        // The client words it in the user's language from the key, the entity and the count.
        items.push({ path: '', keyword: 'inUse', messageKey: 'errors.inUse', params: { entity: other.descriptor.name, count: n } });
      }
    }
    if (users.length > 0) {
      throw conflict(`This ${entity.descriptor.label} is still used by ${users.join(' and ')}; it cannot be deleted.`, items);
    }
    const trashId = await moveToTrash(trx, entity, existing, ctx);
    try {
      await trx.deleteFrom(entity.descriptor.table).where('id', '=', id).execute();
      await auditEntityWrite(trx, ctx, entity, 'delete', id, existing, null, { trash_id: trashId });
    } catch (error) {
      if (isStillReferenced(error)) {
        throw conflict(`This ${entity.descriptor.label} is still used by other records; it cannot be deleted.`, [
          { path: '', keyword: 'inUse', messageKey: 'errors.inUseUnknown', params: {} },
        ]);
      }
      throw error;
    }
  });
}
