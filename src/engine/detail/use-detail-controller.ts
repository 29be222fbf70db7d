import { useNavigate } from 'react-router-dom';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import type { entityPaths } from '../data/entity-labels.js';
import { useDeleteWithConfirm } from '../data/use-entity-mutations.js';
import { type RecordQuery, useRecordQuery } from '../data/use-record-query.js';

/** What a detail screen renders: the record's load and what may be done with it (ra-core's `useShowController`). */
export interface DetailController extends Omit<RecordQuery, 'refetch'> {
  entity: ClientEntity;
  paths: ReturnType<typeof entityPaths>;
  /** Whether the caller may edit and delete it. */
  canEdit: boolean;
  canDelete: boolean;
  /** True while the record's delete is in flight. */
  deleting: boolean;
  /** Asks before deleting (the confirm dialog), deletes with an Undo toast, and goes back to the list when it did. */
  remove(): Promise<void>;
}

/**
 * The detail screen's logic, headless: the route's record (see {@link useRecordQuery}) and its
 * delete, which asks first, toasts with Undo, and returns to the list.
 */
export function useDetailController(entity: ClientEntity): DetailController {
  const navigate = useNavigate();
  const loaded = useRecordQuery(entity);
  const { confirmDelete, deletingId, paths } = useDeleteWithConfirm(entity);
  const { record } = loaded;
  return {
    entity,
    id: loaded.id,
    status: loaded.status,
    record,
    error: loaded.error,
    paths,
    canEdit: entity.permissions.update,
    canDelete: entity.permissions.delete,
    deleting: record !== undefined && deletingId === record.id,
    remove: async () => {
      if (record && (await confirmDelete(record))) void navigate(paths.list);
    },
  };
}
