import { Card } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { entityText, entityTextKeys, entityTextValues } from '../data/entity-labels.js';
import { useTranslation } from '../i18n/use-translation.js';
import { ScreenHeader, usePageTitle } from '../ui/screen-header.js';
import { EntityForm } from './entity-form.js';
import { useCreateController } from './use-create-controller.js';

/**
 * The create screen, a view of {@link useCreateController}: breadcrumbs and title, and the create
 * form ('Creating...' while saving).
 */
export function EntityCreateScreen({ entity }: { entity: ClientEntity }): ReactElement {
  const { t } = useTranslation();
  usePageTitle(entityTextKeys(entity, 'createTitle'), entityTextValues(entity, t));
  const create = useCreateController(entity);
  return (
    <>
      <ScreenHeader
        trail={[{ label: entityText(entity, 'title', t), url: create.paths.list }, { label: entityText(entity, 'createTitle', t) }]}
        heading={entityText(entity, 'createTitle', t)}
      />
      <Card size="3" style={{ maxWidth: 720 }}>
        <EntityForm entity={entity} mode="create" {...create.form} />
      </Card>
    </>
  );
}
