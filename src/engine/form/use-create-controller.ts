import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { FieldError } from '../../shared/api-contract.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { createRecord, type EntityRecord } from '../data/entity-queries.js';
import { entityPaths } from '../data/entity-labels.js';
import { useSaveFeedback } from './use-save-feedback.js';

/** What a create screen renders: the form's start, the save and its state (ra-core's `useCreateController`). */
export interface CreateController {
  entity: ClientEntity;
  paths: ReturnType<typeof entityPaths>;
  /** The form's starting values (the descriptor's create defaults). */
  initialData: Record<string, unknown>;
  /** The last refused save's field errors, shown under their fields. */
  serverErrors: FieldError[] | undefined;
  saving: boolean;
  /** Creates the record from the form's body. */
  save(body: Record<string, unknown>): void;
  /** Back to the list. */
  cancel(): void;
  /** Tells the unsaved-changes guard whether the form has changes. */
  setDirty(dirty: boolean): void;
  /** Toasts server errors the form cannot place under a field. */
  onUnplacedErrors(messages: string[]): void;
}

/**
 * The create screen's logic, headless: the create request, then the success toast and back to the
 * list; server field errors under their fields, other failures as a toast ('Failed to create
 * category'); a question before leaving with unsaved changes.
 *
 * @example const create = useCreateController(entity); <EntityForm mode="create" initialData={create.initialData} onSubmit={create.save} ... />
 */
export function useCreateController(entity: ClientEntity): CreateController {
  const feedback = useSaveFeedback(entity);
  const initialData = useMemo(() => ({ ...entity.forms.create.defaults }), [entity]);
  const mutation = useMutation<EntityRecord, unknown, Record<string, unknown>>({
    mutationFn: (body) => createRecord(entity, body),
    onSuccess: () => feedback.saved('created'),
    onError: (error) => feedback.failed(error, 'createFailed'),
  });
  return {
    entity,
    paths: feedback.paths,
    initialData,
    serverErrors: feedback.serverErrors,
    saving: mutation.isPending,
    save: (body) => mutation.mutate(body),
    cancel: feedback.cancel,
    setDirty: feedback.setDirty,
    onUnplacedErrors: feedback.onUnplacedErrors,
  };
}
