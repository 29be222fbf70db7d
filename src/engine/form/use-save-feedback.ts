import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { FieldError } from '../../shared/api-contract.js';
import type { ClientEntity, EntityTexts } from '../../shared/descriptor/types.js';
import { isApiError } from '../data/api-error.js';
import { entityPaths, entityText } from '../data/entity-labels.js';
import { mutationErrorText, useInvalidateEntity } from '../data/use-entity-mutations.js';
import { useToasts } from '../ui/toast-context.js';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard.js';

/** Field errors of a failed save that belong under fields (422, or a 409 unique clash naming a field). */
export function fieldErrorsOf(error: unknown): FieldError[] | undefined {
  if (!isApiError(error) || !error.errors) return undefined;
  return error.status === 422 || error.status === 409 ? error.errors : undefined;
}

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
    navigate(paths.list);
  };
  const failed = (error: unknown, fallback: keyof EntityTexts) => {
    const fieldErrors = fieldErrorsOf(error);
    setServerErrors(fieldErrors);
    if (!fieldErrors) toasts.error(mutationErrorText(error, t, entityText(entity, fallback, t)));
  };
  const onUnplacedErrors = useCallback((messages: string[]) => messages.forEach((message) => toasts.error(message)), [toasts]);

  return {
    paths,
    serverErrors,
    setServerErrors,
    setDirty,
    saved,
    failed,
    onUnplacedErrors,
    /** Back to the list (the guard asks first when the form has changes). */
    cancel: () => navigate(paths.list),
  };
}
