import { Card } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { entityText, entityTextKeys, entityTextValues, recordTitle } from '../data/entity-labels.js';
import { useTranslation } from '../i18n/use-translation.js';
import { RecordStateView } from '../ui/record-state-view.js';
import { ScreenHeader, usePageTitle } from '../ui/screen-header.js';
import { EntityForm } from './entity-form.js';
import { useEditController } from './use-edit-controller.js';

/**
 * The edit screen, a view of {@link useEditController}: 'Invalid category ID', a spinner,
 * 'Category not found.' or 'Error loading category: …' with 'Back to Category List'; then the
 * breadcrumbs (the list, the record, Edit) and the edit form ('Updating...' while saving).
 */
export function EntityEditScreen({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  const edit = useEditController(entity);
  const { paths, record } = edit;
  // The edit title may name the record ('Edit Category - {{title}}'); an entity may give the
  // document its own title ('Edit Submittor', spec page titles) under `edit_page_title`.
  const titleValues = { title: record ? recordTitle(entity, record) : '' };
  const pageTitleKey = `entities.${entity.name}.edit_page_title`;
  usePageTitle([pageTitleKey, ...entityTextKeys(entity, 'editTitle')], { ...entityTextValues(entity, t), ...titleValues });
  const heading = entityText(entity, 'editTitle', t, titleValues);
  const ready = edit.status === 'ready' && record;

  return (
    <>
      <ScreenHeader
        trail={[
          { label: entityText(entity, 'title', t), url: paths.list },
          ...(ready ? [{ label: recordTitle(entity, record), url: entity.permissions.read ? paths.detail(record.id) : undefined }] : []),
          { label: heading },
        ]}
        heading={heading}
      />
      <Card size="3" style={{ maxWidth: 720 }}>
        {ready ? (
          <EntityForm key={edit.formKey} entity={entity} mode="edit" {...edit.form} />
        ) : (
          <RecordStateView entity={entity} state={edit} back={{ to: paths.list, label: entityText(entity, 'backToList', t) }} />
        )}
      </Card>
    </>
  );
}
