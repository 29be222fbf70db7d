import { Card } from '@radix-ui/themes';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import type { FieldError } from '../../shared/api-contract.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { isApiError } from '../data/api-error.js';
import { entityPaths, entityText, entityTextKeys, entityTextValues } from '../data/entity-labels.js';
import { createRecord } from '../data/entity-queries.js';
import { mutationErrorText, useInvalidateEntity } from '../data/use-entity-mutations.js';
import { ScreenHeader, usePageTitle } from '../ui/screen-header.js';
import { EntityForm } from './entity-form.js';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard.js';

/** Field errors of a failed save that belong under fields (422, or a 409 unique clash naming a field). */
export function fieldErrorsOf(error: unknown): FieldError[] | undefined {
  if (!isApiError(error) || !error.errors) return undefined;
  return error.status === 422 || error.status === 409 ? error.errors : undefined;
}

/**
 * The create screen: the create form, 'Creating...' while saving, the success toast and back to
 * the list, server field errors under their fields, other failures as a toast ('Failed to create
 * category'), and a question before leaving with unsaved changes.
 */
export function EntityCreateScreen({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  usePageTitle(entityTextKeys(entity, 'createTitle'), entityTextValues(entity, t));
  const navigate = useNavigate();
  const paths = entityPaths(entity);
  const invalidate = useInvalidateEntity(entity);
  const [dirty, setDirty] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldError[]>();
  const allowLeave = useUnsavedChangesGuard(dirty);
  const initialData = useMemo(() => ({ ...entity.forms.create.defaults }), [entity]);

  const mutation = useMutation({
    mutationFn: (body: Record<string, unknown>) => createRecord(entity, body),
    onSuccess: async () => {
      toast.success(entityText(entity, 'created', t));
      allowLeave();
      await invalidate();
      navigate(paths.list);
    },
    onError: (error) => {
      const fieldErrors = fieldErrorsOf(error);
      setServerErrors(fieldErrors);
      if (!fieldErrors) toast.error(mutationErrorText(error, t, entityText(entity, 'createFailed', t)));
    },
  });
  const onUnplaced = useCallback((messages: string[]) => messages.forEach((message) => toast.error(message)), []);

  return (
    <>
      <ScreenHeader
        trail={[{ label: entityText(entity, 'title', t), url: paths.list }, { label: entityText(entity, 'createTitle', t) }]}
        heading={entityText(entity, 'createTitle', t)}
      />
      <Card size="3" style={{ maxWidth: 720 }}>
        <EntityForm
          entity={entity}
          mode="create"
          initialData={initialData}
          serverErrors={serverErrors}
          saving={mutation.isPending}
          onSubmit={(body) => mutation.mutate(body)}
          onCancel={() => navigate(paths.list)}
          onDirtyChange={setDirty}
          onUnplacedErrors={onUnplaced}
        />
      </Card>
    </>
  );
}
