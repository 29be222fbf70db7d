import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import type { entityPaths } from '../data/entity-labels.js';
import { createRecord, type EntityRecord } from '../data/entity-queries.js';
import { type FormBindings, useSaveFeedback } from './use-save-feedback.js';

/** What a create screen renders (ra-core's `useCreateController`). */
export interface CreateController {
  entity: ClientEntity;
  paths: ReturnType<typeof entityPaths>;
  /** The create form's bindings: the descriptor's create defaults, the save and its state. */
  form: FormBindings;
}

/**
 * The create screen's logic, headless: the create request, then the success toast and back to the
 * list; server field errors under their fields, other failures as a toast ('Failed to create
 * category'); a question before leaving with unsaved changes.
 *
 * @example const create = useCreateController(entity); <EntityForm entity={entity} mode="create" {...create.form} />
 */
export function useCreateController(entity: ClientEntity): CreateController {
  const feedback = useSaveFeedback(entity);
  const initialData = useMemo(() => ({ ...entity.forms.create.defaults }), [entity]);
  const mutation = useMutation<EntityRecord, unknown, Record<string, unknown>>({
    mutationFn: (body) => createRecord(entity, body),
    onSuccess: () => feedback.saved('created'),
    onError: (error) => feedback.failed(error, 'createFailed'),
  });
  return { entity, paths: feedback.paths, form: feedback.form(initialData, mutation.isPending, (body) => mutation.mutate(body)) };
}
