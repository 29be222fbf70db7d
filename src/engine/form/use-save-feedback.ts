import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { FieldError } from '../../shared/api-contract.js';
import type { ClientEntity, EntityTexts } from '../../shared/descriptor/types.js';
import { isApiError } from '../data/api-error.js';
import { entityPaths, entityText } from '../data/entity-labels.js';
import { mutationErrorText, useInvalidateEntity } from '../data/use-entity-mutations.js';
import { useTranslation } from '../i18n/use-translation.js';
import { useToasts } from '../ui/toast-context.js';
import type { EntityFormProps } from './entity-form.js';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard.js';

/** Field errors of a failed save that belong under fields (422, or a 409 unique clash naming a field). */
export function fieldErrorsOf(error: unknown): FieldError[] | undefined {
  if (!isApiError(error) || !error.errors) return undefined;
  return error.status === 422 || error.status === 409 ? error.errors : undefined;
}

/**
 * What a create or edit controller hands its form: the starting values, the server's field errors,
 * the save and its state, the way back, and the unsaved-changes and unplaced-error reports.
 *
 * @example <EntityForm entity={entity} mode="create" {...create.form} />
 */
export type FormBindings = Omit<EntityFormProps, 'entity' | 'mode'>;

/**
 * What the create and edit controllers share: the unsaved-changes guard, the server's field errors,
 * and the outcome of a save. A saved record toasts ('Category created successfully!'), lets the
 * admin leave, refreshes the entity's lists and records, and goes back to the list; a refused one
 * puts field errors under their fields (not toasted too) and toasts anything else ('Failed to
 * create category'); errors the form cannot place under a field are toasted.
 */
export function useSaveFeedback(entity: ClientEntity) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toasts = useToasts();
  const paths = entityPaths(entity);
  const invalidate = useInvalidateEntity(entity);
  const [dirty, setDirty] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldError[]>();
  const allowLeave = useUnsavedChangesGuard(dirty);

  const saved = async (text: keyof EntityTexts) => {
    toasts.success(entityText(entity, text, t));
    allowLeave();
    await invalidate();
    void navigate(paths.list);
  };
  const failed = (error: unknown, fallback: keyof EntityTexts) => {
    const fieldErrors = fieldErrorsOf(error);
    setServerErrors(fieldErrors);
    if (!fieldErrors) toasts.error(mutationErrorText(error, t, entityText(entity, fallback, t)));
  };
  const onUnplacedErrors = useCallback(
    (messages: string[]) => {
      for (const message of messages) toasts.error(message);
    },
    [toasts],
  );

  return {
    paths,
    setServerErrors,
    saved,
    failed,
    /** The form's bindings for these starting values and this save (Cancel goes back to the list, the guard asking first). */
    form: (initialData: Record<string, unknown>, saving: boolean, save: (body: Record<string, unknown>) => void): FormBindings => ({
      initialData,
      serverErrors,
      saving,
      onSubmit: save,
      onCancel: () => navigate(paths.list),
      onDirtyChange: setDirty,
      onUnplacedErrors,
    }),
  };
}
