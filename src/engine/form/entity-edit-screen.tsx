import { Card } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import type { FieldError } from '../../shared/api-contract.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { describeError, isApiError } from '../data/api-error.js';
import { entityPaths, entityText, entityTextKeys, entityTextValues, recordTitle } from '../data/entity-labels.js';
import { entityRecordOptions, updateRecord, versionTagOf, type EntityRecord } from '../data/entity-queries.js';
import { parseRecordId } from '../../shared/record-id.js';
import { mutationErrorText, useInvalidateEntity } from '../data/use-entity-mutations.js';
import { useDialogs } from '../ui/dialog-context.js';
import { ScreenHeader, usePageTitle } from '../ui/screen-header.js';
import { ErrorState, LoadingState, NoticeState } from '../ui/screen-states.js';
import { fieldErrorsOf } from './entity-create-screen.js';
import { MergeContent } from './merge-dialog.js';
import { planMerge } from './merge-plan.js';
import { EntityForm } from './entity-form.js';
import { buildFormSchema, pickFormData } from './form-schema.js';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard.js';

/**
 * The edit screen: 'Invalid category ID' for a bad id (no request), a spinner while loading,
 * 'Category not found.', 'Error loading category: …' with 'Back to Category List', then the edit
 * form. Saves send `If-Match`; a 409 because someone else saved first opens the merge dialog (the
 * original, theirs and yours per field) and saves the merge against their version.
 */
export function EntityEditScreen({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  const id = parseRecordId(useParams().id);
  const paths = entityPaths(entity);
  const back = { to: paths.list, label: entityText(entity, 'backToList', t) };
  const query = useQuery({ ...entityRecordOptions(entity, id ?? 0), enabled: id !== null });
  // The edit title may name the record ('Edit Customer - {{title}}'); an entity may give the
  // document its own title ('Edit Submittor', spec page titles) under `edit_page_title`.
  const titleValues = { title: query.data ? recordTitle(entity, query.data) : '' };
  const pageTitleKey = `entities.${entity.name}.edit_page_title`;
  usePageTitle([pageTitleKey, ...entityTextKeys(entity, 'editTitle')], { ...entityTextValues(entity, t), ...titleValues });

  let body: ReactElement;
  if (id === null) body = <ErrorState message={entityText(entity, 'invalidId', t)} back={back} />;
  else if (query.isPending) body = <LoadingState />;
  else if (query.error && query.error.status === 404) body = <NoticeState message={entityText(entity, 'notFound', t)} back={back} />;
  else if (query.error) body = <ErrorState message={entityText(entity, 'loadOneError', t, { message: describeError(query.error, t) })} back={back} />;
  else return <EditForm entity={entity} id={id} loaded={query.data} refetch={async () => (await query.refetch()).data} />;

  return (
    <>
      <ScreenHeader
        trail={[{ label: entityText(entity, 'title', t), url: paths.list }, { label: entityText(entity, 'editTitle', t, titleValues) }]}
        heading={entityText(entity, 'editTitle', t, titleValues)}
      />
      <Card size="3" style={{ maxWidth: 720 }}>
        {body}
      </Card>
    </>
  );
}

function isStaleConflict(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && !error.errors?.some((item) => item.path);
}

function EditForm(props: {
  entity: ClientEntity;
  id: number;
  loaded: EntityRecord;
  refetch: () => Promise<EntityRecord | undefined>;
}): ReactElement {
  const { entity, id, loaded, refetch } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const client = useQueryClient();
  const paths = entityPaths(entity);
  const invalidate = useInvalidateEntity(entity);
  // The form keeps the record it started from: a background refresh must not wipe the admin's edits.
  const [base, setBase] = useState<{ record: EntityRecord; version: number }>({ record: loaded, version: 0 });
  const [dirty, setDirty] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldError[]>();
  const allowLeave = useUnsavedChangesGuard(dirty);
  const form = useMemo(() => buildFormSchema(entity, 'edit'), [entity]);
  const initialData = useMemo(() => pickFormData(base.record, form), [base, form]);
  useEffect(() => setServerErrors(undefined), [base]);

  const reload = async () => {
    const fresh = await refetch();
    if (fresh) setBase((current) => ({ record: fresh, version: current.version + 1 }));
  };

  const mutation = useMutation({
    mutationFn: (input: { body: Record<string, unknown>; ifMatch?: string }) =>
      updateRecord(entity, id, input.body, input.ifMatch ?? versionTagOf(base.record)),
    onSuccess: async (saved) => {
      toast.success(entityText(entity, 'updated', t));
      allowLeave();
      client.setQueryData(entityRecordOptions(entity, id).queryKey, saved);
      await invalidate();
      navigate(paths.list);
    },
    onError: async (error, submitted) => {
      const current = isStaleConflict(error) ? ((error as { body?: { data?: EntityRecord } }).body?.data ?? undefined) : undefined;
      if (current) {
        // Someone saved first: merge their changes with these (one-sided fields by themselves,
        // fields both changed by choice), then save again against their version.
        const plan = planMerge(form.fields, pickFormData(base.record, form), pickFormData(current, form), submitted.body);
        const merged = (await dialogs.custom({
          title: t('history.merge.title'),
          description: t('history.merge.description', { name: recordTitle(entity, current) }),
          size: 'xl',
          content: (close) => <MergeContent entity={entity} plan={plan} close={close} />,
        })) as Record<string, unknown> | undefined;
        if (!merged) return;
        setBase((previous) => ({ record: { ...current, ...merged }, version: previous.version + 1 }));
        mutation.mutate({ body: merged, ifMatch: versionTagOf(current) });
        return;
      }
      if (isStaleConflict(error)) {
        const reloadNow = await dialogs.confirm({
          title: t('common.conflict.title'),
          description: t('common.conflict.description', { name: recordTitle(entity, base.record) }),
          confirmText: t('common.conflict.reload'),
          cancelText: t('common.conflict.keep_editing'),
        });
        if (reloadNow) await reload();
        return;
      }
      const fieldErrors = fieldErrorsOf(error);
      setServerErrors(fieldErrors);
      if (!fieldErrors) toast.error(mutationErrorText(error, t, entityText(entity, 'updateFailed', t)));
    },
  });
  const onUnplaced = useCallback((messages: string[]) => messages.forEach((message) => toast.error(message)), []);

  return (
    <>
      <ScreenHeader
        trail={[
          { label: entityText(entity, 'title', t), url: paths.list },
          { label: recordTitle(entity, base.record), url: entity.permissions.read ? paths.detail(id) : undefined },
          { label: entityText(entity, 'editTitle', t, { title: recordTitle(entity, base.record) }) },
        ]}
        heading={entityText(entity, 'editTitle', t, { title: recordTitle(entity, base.record) })}
      />
      <Card size="3" style={{ maxWidth: 720 }}>
        <EntityForm
          key={base.version}
          entity={entity}
          mode="edit"
          initialData={initialData}
          serverErrors={serverErrors}
          saving={mutation.isPending}
          onSubmit={(body) => mutation.mutate({ body })}
          onCancel={() => navigate(paths.list)}
          onDirtyChange={setDirty}
          onUnplacedErrors={onUnplaced}
        />
      </Card>
    </>
  );
}
