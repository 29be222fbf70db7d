import type { Kysely } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import type { OperationContext } from '../operations/context.js';
import { appendAudit } from './audit-chain.js';
import { entityChanges } from './changes.js';

/** The actions an entity write records. */
export type EntityAuditAction = 'create' | 'update' | 'delete' | 'restore';

/**
 * Appends the audit row of one entity write in the write's transaction: who (the context's actor),
 * the record, and its changed stored fields before and after, write-only and secret fields never.
 */
export async function auditEntityWrite(
  trx: Kysely<any>,
  ctx: OperationContext,
  entity: LoadedEntity,
  action: EntityAuditAction,
  id: unknown,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  details?: Record<string, unknown>,
): Promise<void> {
  await appendAudit(trx, {
    action,
    userId: ctx.actor?.userId ?? null,
    ip: ctx.actor?.ip ?? null,
    entity: entity.descriptor.name,
    entityId: String(id),
    details: details ?? null,
    changes: entityChanges(entity, before, after),
  });
}
