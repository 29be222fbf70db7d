import { type Kysely, sql } from 'kysely';
import { fieldKind } from '../../shared/descriptor/schema-fields.js';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { messageKeyFor } from '../../shared/field-errors.js';
import { roleLinks } from '../../shared/roles.js';
import { uniqueViolationField } from '../../shared/sql-text.js';
import { conflict, notFound } from '../errors.js';
import { type OperationContext, selectionOf, storedFields } from '../operations/context.js';
import { appendAudit } from './audit-chain.js';
import { auditEntityWrite } from './entity-audit.js';

/** The `detached` entry of the accounts a role link tied to the deleted record (not an entity name: it has a space). */
const ACCOUNTS = 'user accounts';

/** How long a deleted record stays restorable. */
export const TRASH_RETENTION_DAYS = 30;

const jsonSafe = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));

/**
 * Keeps a record about to be deleted in the trash: its stored row (write-only fields included, so
 * a restore gives back exactly what was there) and the ids of the records whose `set-null`
 * relation the delete will empty. Runs in the delete's transaction; returns the trash row's id.
 */
export async function moveToTrash(trx: Kysely<any>, entity: LoadedEntity, record: Record<string, unknown>, ctx: OperationContext): Promise<number> {
  const name = entity.descriptor.name;
  const detached: Array<{ entity: string; field: string; ids: number[] }> = [];
  for (const other of ctx.registry.entities) {
    for (const relation of Object.values(other.descriptor.relations)) {
      if (relation.entity !== name || relation.onDelete !== 'set-null') continue;
      const rows = await trx.selectFrom(other.descriptor.table).select('id').where(relation.field, '=', record.id).execute();
      if (rows.length > 0) detached.push({ entity: other.descriptor.name, field: relation.field, ids: rows.map((r) => Number(r.id)) });
    }
  }
  // Accounts linked to the record through a role's link (a juror's users.jury_id): unlinked, so no
  // account points at a record that is gone (a restore links them again, where still unlinked).
  for (const link of roleLinks()) {
    if (link.entity !== name) continue;
    const rows = await trx
      .updateTable('users')
      .set({ [link.column]: null })
      .where(link.column, '=', record.id)
      .returning('id')
      .execute();
    if (rows.length > 0) detached.push({ entity: ACCOUNTS, field: link.column, ids: rows.map((r) => Number(r.id)) });
  }
  const titleField = entity.descriptor.titleField;
  const title = titleField && record[titleField] != null ? String(record[titleField]) : null;
  const row = await trx
    .insertInto('trash')
    .values({
      entity: name,
      record_id: Number(record.id),
      title,
      record: JSON.stringify(jsonSafe(record)),
      detached: JSON.stringify(detached),
      deleted_by: ctx.actor?.userId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Removes trash rows past their retention; returns how many. */
export async function purgeExpiredTrash(db: Kysely<any>): Promise<number> {
  const result = await sql`delete from trash where deleted_at < now() - make_interval(days => ${TRASH_RETENTION_DAYS})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Brings a deleted record back from the trash with its id, its stored values and the links its
 * delete emptied (where they are still empty). Counters and list versions follow through the
 * table's triggers. Audited as `restore` in the same transaction.
 *
 * @throws AppError 404 when the record is not in the trash (never deleted, restored, or expired);
 *   409 when a newer record holds one of its unique values or the record it belonged to is gone.
 */
export async function restoreFromTrash(entity: LoadedEntity, id: number, ctx: OperationContext): Promise<Record<string, unknown>> {
  const name = entity.descriptor.name;
  const label = entity.descriptor.label;
  return ctx.db.transaction().execute(async (trx) => {
    const item = await trx
      .selectFrom('trash')
      .selectAll()
      .where('entity', '=', name)
      .where('record_id', '=', id)
      .where(sql<boolean>`deleted_at >= now() - make_interval(days => ${TRASH_RETENTION_DAYS})`)
      .orderBy('id', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!item) throw notFound(`This ${label} is not in the trash.`);
    const record = (typeof item.record === 'string' ? JSON.parse(item.record) : item.record) as Record<string, unknown>;
    const props = entity.schema.properties ?? {};
    const values: Record<string, unknown> = {};
    for (const field of storedFields(entity)) {
      if (!(field in record)) continue;
      const value = record[field];
      values[field] = fieldKind(props[field]!) === 'json' && value !== null ? sql`${JSON.stringify(value)}::jsonb` : value;
    }
    values.id = id;
    try {
      await trx.insertInto(entity.descriptor.table).values(values).execute();
    } catch (error) {
      throw restoreConflict(entity, error);
    }
    let relinked = 0;
    const detached = (typeof item.detached === 'string' ? JSON.parse(item.detached) : item.detached) as Array<{ entity: string; field: string; ids: number[] }>;
    for (const link of detached) {
      const other = link.entity === ACCOUNTS ? undefined : ctx.registry.byName.get(link.entity);
      const table = link.entity === ACCOUNTS && roleLinks().some((l) => l.column === link.field) ? 'users' : other?.descriptor.table;
      if (!table || link.ids.length === 0) continue;
      const result = await trx
        .updateTable(table)
        .set({ [link.field]: id })
        .where('id', 'in', link.ids)
        .where(link.field, 'is', null)
        .executeTakeFirst();
      relinked += Number(result.numUpdatedRows ?? 0);
    }
    await trx.deleteFrom('trash').where('id', '=', item.id).execute();
    const restored = (await trx
      .selectFrom(entity.descriptor.table)
      .select(selectionOf(entity, ctx.registry))
      .where('id', '=', id)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    await auditEntityWrite(trx, ctx, entity, 'restore', id, null, record, { trash_id: Number(item.id), relinked });
    return restored;
  });
}

function restoreConflict(entity: LoadedEntity, error: unknown): unknown {
  const { code, detail } = (error ?? {}) as { code?: string; detail?: string };
  const label = entity.descriptor.label;
  if (code === '23505') {
    const field = uniqueViolationField(detail);
    if (field === 'id') return conflict(`A ${label} with this id exists again; it cannot be restored.`);
    return conflict(`A newer ${label} already has this ${field || 'value'}; change or delete that one first, then restore.`, [
      { path: field, keyword: 'restoreClash', messageKey: messageKeyFor(entity.descriptor.messages, field, 'restoreClash'), params: {} },
    ]);
  }
  if (code === '23503') return conflict(`This ${label} belonged to a record that no longer exists; restore that one first.`);
  return error;
}

/** One page of the trash, newest first, expired items dropped first. */
export async function listTrash(db: Kysely<any>, query: { page: number; perPage: number; entity?: string }) {
  await purgeExpiredTrash(db);
  let base = db.selectFrom('trash');
  if (query.entity) base = base.where('trash.entity', '=', query.entity);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .leftJoin('users', 'users.id', 'trash.deleted_by')
    .select(['trash.id', 'trash.entity', 'trash.record_id', 'trash.title', 'trash.deleted_at', 'trash.deleted_by', 'users.name as deleted_by_name'])
    .select(sql<Date>`trash.deleted_at + make_interval(days => ${TRASH_RETENTION_DAYS})`.as('expires_at'))
    .orderBy('trash.id', 'desc')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  return { rows, total };
}

/**
 * Deletes trash items for good (all, or the given ids) and audits it as `trash.empty` with what
 * went; returns how many.
 */
export async function emptyTrash(db: Kysely<any>, actor: OperationContext['actor'], ids?: number[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let query = trx.deleteFrom('trash');
    if (ids) query = query.where('id', 'in', ids.length ? ids : [0]);
    const gone = await query.returning(['entity', 'record_id', 'title']).execute();
    if (gone.length > 0) {
      await appendAudit(trx, {
        action: 'trash.empty',
        userId: actor?.userId ?? null,
        ip: actor?.ip ?? null,
        entity: null,
        entityId: null,
        details: { count: gone.length, records: gone.slice(0, 500).map((g) => ({ entity: g.entity, id: Number(g.record_id), title: g.title })) },
        changes: null,
      });
    }
    return gone.length;
  });
}
