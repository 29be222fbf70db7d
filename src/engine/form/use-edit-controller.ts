import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createElement, useEffect, useMemo, useState } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { isApiError } from '../data/api-error.js';
import { type entityPaths, recordTitle } from '../data/entity-labels.js';
import { type EntityRecord, entityRecordOptions, updateRecord, versionTagOf } from '../data/entity-queries.js';
import { type RecordQuery, useRecordQuery } from '../data/use-record-query.js';
import { useTranslation } from '../i18n/use-translation.js';
import { useDialogs } from '../ui/dialog-context.js';
import { buildFormSchema, pickFormData } from './form-schema.js';
import { MergeContent } from './merge-dialog.js';
import { planMerge } from './merge-plan.js';
import { type FormBindings, useSaveFeedback } from './use-save-feedback.js';

/** What an edit screen renders: the record's load, the form's start, the save and its state (ra-core's `useEditController`). */
export interface EditController extends Omit<RecordQuery, 'record' | 'refetch'> {
  entity: ClientEntity;
  paths: ReturnType<typeof entityPaths>;
  /** The record the form started from (the loaded one, or the one a merge or reload put in its place). */
  record: EntityRecord | undefined;
  /** Changes when the form must start again from `record` (after a merge or a reload): the form's `key`. */
  formKey: number;
  /** The edit form's bindings: the form's fields of `record`, the save (with `If-Match` on that version) and its state. */
  form: FormBindings;
}

/** A 409 because the record changed since it was loaded (a unique clash names its field instead). */
function isStaleConflict(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && !error.errors?.some((item) => item.path);
}

/**
 * The edit screen's logic, headless: loads the route's record (see {@link useRecordQuery}); keeps
 * the record the form started from, so a background refresh never wipes the admin's edits; saves
 * with `If-Match`, then toasts, refreshes and goes back to the list. A 409 because someone else
 * saved first opens the merge dialog (the original, theirs and yours per field) and saves the
 * merge against their version, or, without their version, offers to reload. Field errors go
 * under their fields, other failures to a toast ('Failed to update category').
 */
export function useEditController(entity: ClientEntity): EditController {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const client = useQueryClient();
  const loaded = useRecordQuery(entity);
  const feedback = useSaveFeedback(entity);
  const form = useMemo(() => buildFormSchema(entity, 'edit'), [entity]);
  // The record the form started from, per id; the loaded one until a merge or a reload replaces it.
  const [started, setStarted] = useState<{ id: number; record: EntityRecord; version: number } | null>(null);
  if (loaded.id !== null && loaded.record && started?.id !== loaded.id) setStarted({ id: loaded.id, record: loaded.record, version: 0 });
  const base = started?.id === loaded.id ? started : null;
  const restart = (record: EntityRecord) => setStarted((current) => current && { ...current, record, version: current.version + 1 });
  const initialData = useMemo(() => (base ? pickFormData(base.record, form) : {}), [base, form]);
  const { setServerErrors } = feedback;
  // biome-ignore lint/correctness/useExhaustiveDependencies: clears the server errors whenever the form starts again from another record: `base` is the trigger
  useEffect(() => setServerErrors(undefined), [base, setServerErrors]);

  const mutation = useMutation<EntityRecord, unknown, { body: Record<string, unknown>; ifMatch?: string }>({
    mutationFn: (input) => updateRecord(entity, loaded.id ?? 0, input.body, input.ifMatch ?? versionTagOf(base?.record ?? {})),
    onSuccess: async (saved) => {
      client.setQueryData(entityRecordOptions(entity, loaded.id ?? 0).queryKey, saved);
      await feedback.saved('updated');
    },
    onError: async (error, submitted) => {
      if (!isStaleConflict(error) || !base) return feedback.failed(error, 'updateFailed');
      const current = (error as { body?: { data?: EntityRecord } }).body?.data;
      if (current) {
        // Someone saved first: merge their changes with these (one-sided fields by themselves,
        // fields both changed by choice), then save again against their version.
        const plan = planMerge(form.fields, pickFormData(base.record, form), pickFormData(current, form), submitted.body);
        const merged = (await dialogs.custom({
          title: t('history.merge.title'),
          description: t('history.merge.description', { name: recordTitle(entity, current) }),
          size: 'xl',
          content: (close) => createElement(MergeContent, { entity, plan, close }),
        })) as Record<string, unknown> | undefined;
        if (!merged) return;
        restart({ ...current, ...merged });
        mutation.mutate({ body: merged, ifMatch: versionTagOf(current) });
        return;
      }
      const reloadNow = await dialogs.confirm({
        title: t('common.conflict.title'),
        description: t('common.conflict.description', { name: recordTitle(entity, base.record) }),
        confirmText: t('common.conflict.reload'),
        cancelText: t('common.conflict.keep_editing'),
      });
      if (!reloadNow) return;
      const fresh = await loaded.refetch();
      if (fresh) restart(fresh);
    },
  });

  return {
    entity,
    id: loaded.id,
    // The form shows once a record is in; a failed background refresh shows the error, as before.
    status: loaded.status === 'ready' && !base ? 'loading' : loaded.status,
    error: loaded.error,
    record: base?.record,
    formKey: base?.version ?? 0,
    paths: feedback.paths,
    form: feedback.form(initialData, mutation.isPending, (body) => mutation.mutate({ body })),
  };
}
