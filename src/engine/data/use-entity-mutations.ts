import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createElement, Fragment } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { useTranslation } from '../i18n/use-translation.js';
import { registeredDeleteImpacts } from '../registry/extension-registry.js';
import { useDialogs } from '../ui/dialog-context.js';
import { useToasts } from '../ui/toast-context.js';
import { describeError, type Translate } from './api-error.js';
import { entityPaths, entityText, recordTitle } from './entity-labels.js';
import { deleteRecord, type EntityRecord } from './entity-queries.js';
import { queryKeys } from './query-keys.js';
import { showDeletedToast } from './undo-toast.js';

/**
 * The text of a failed mutation in the user's language: what the error's code and keys
 * say ('This record is still used by 1 other record.', 'The server could not be reached...'), else the
 * entity's fallback ('Failed to delete category').
 */
export function mutationErrorText(error: unknown, t: Translate, fallback: string): string {
  return describeError(error, t, fallback);
}

/** Refreshes every list and record of an entity (and drops a deleted record's cache). */
export function useInvalidateEntity(entity: ClientEntity) {
  const client = useQueryClient();
  return async (removedId?: number) => {
    if (removedId !== undefined) client.removeQueries({ queryKey: queryKeys.detail(entity.name, removedId) });
    await client.invalidateQueries({ queryKey: queryKeys.entity(entity.name) });
  };
}

/**
 * Delete through the confirm dialog: 'Are you sure you want to delete category "{{name}}"?'
 * (Yes/No), then the success toast (with Undo for 10 s) or the failure toast and a refreshed list. Resolves true when deleted.
 */
export function useDeleteWithConfirm(entity: ClientEntity) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const toasts = useToasts();
  const invalidate = useInvalidateEntity(entity);
  const mutation = useMutation({
    mutationFn: (id: number) => deleteRecord(entity, id),
  });

  const confirmDelete = async (record: EntityRecord): Promise<boolean> => {
    let deleted = false;
    // What else the delete touches, as the features that know say (an exam's grades).
    const notes = (await Promise.all(registeredDeleteImpacts(entity.name).map((impact) => impact(record, t).catch(() => null)))).filter(
      (note): note is string => Boolean(note),
    );
    const question = entityText(entity, 'deleteConfirm', t, { name: recordTitle(entity, record) });
    await dialogs.confirm({
      title: entityText(entity, 'deleteTitle', t),
      description:
        notes.length === 0
          ? question
          : createElement(
              Fragment,
              null,
              question,
              ...notes.map((note) => createElement('strong', { key: note, role: 'alert', style: { display: 'block', marginTop: 8 } }, note)),
            ),
      confirmText: t('common.yes'),
      cancelText: t('common.no'),
      onConfirm: async () => {
        try {
          await mutation.mutateAsync(record.id);
          deleted = true;
          showDeletedToast(
            toasts,
            entity,
            record,
            entityText(entity, 'deleted', t),
            {
              restored: t('history.restored', { name: recordTitle(entity, record) }),
              failed: (error) => mutationErrorText(error, t, t('history.restore_failed')),
            },
            () => invalidate(),
          );
        } catch (error) {
          toasts.error(mutationErrorText(error, t, entityText(entity, 'deleteFailed', t)));
        }
        await invalidate(deleted ? record.id : undefined);
      },
    });
    return deleted;
  };

  return {
    confirmDelete,
    /** The id being deleted, for a spinner on its row. */
    deletingId: mutation.isPending ? mutation.variables : undefined,
    paths: entityPaths(entity),
  };
}
