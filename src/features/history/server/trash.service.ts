import type { Kysely } from 'kysely';
import { type EntityRegistry, listTrash, type SystemTables } from '../../../server/index.js';
import type { TrashItem } from '../shared/trash-item.js';
import { pageMeta } from './audit.service.js';

/** A row of the server's trash list. */
interface TrashRow {
  id: number | string;
  entity: string;
  record_id: number | string;
  title: string | null;
  deleted_at: Date | string;
  expires_at: Date | string;
  deleted_by: number | string | null;
  deleted_by_name: string | null;
}

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : value);

/** One page of the trash (expired items purged first), newest first, of every entity or one. */
export async function trashPage(db: Kysely<SystemTables>, registry: EntityRegistry, query: { page: number; perPage: number; entity?: string }) {
  const { rows, total } = await listTrash(db, query);
  return {
    data: (rows as TrashRow[]).map(
      (r): TrashItem => ({
        id: Number(r.id),
        entity: r.entity,
        endpoint: registry.byName.get(r.entity)?.descriptor.endpoint ?? null,
        record_id: Number(r.record_id),
        title: r.title,
        deleted_at: iso(r.deleted_at),
        expires_at: iso(r.expires_at),
        deleted_by: r.deleted_by === null ? null : { id: Number(r.deleted_by), name: r.deleted_by_name ?? null },
      }),
    ),
    meta: pageMeta(query.page, query.perPage, total),
  };
}
