import { Button, Flex, Text } from '@radix-ui/themes';
import { type ReactElement, useState } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { useTranslation } from '../i18n/use-translation.js';
import type { ToastApi } from '../ui/toast-context.js';
import type { EntityRecord } from './entity-queries.js';
import { http } from './http-client.js';

/** How long a delete's toast offers Undo. */
export const UNDO_MS = 10_000;

/** Brings a deleted record back from the trash with its id; resolves with the restored record. */
export async function restoreRecord(entity: ClientEntity, id: number): Promise<EntityRecord> {
  return (await http.post<{ data: EntityRecord }>(`/${entity.endpoint}/${id}/restore`)).data;
}

function UndoDeleteToast(props: { message: string; onUndo: () => Promise<void> }): ReactElement {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Flex align="center" justify="between" gap="3">
      <Text size="2">{props.message}</Text>
      <Button
        size="1"
        variant="soft"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await props.onUndo();
        }}
      >
        {t('history.undo')}
      </Button>
    </Flex>
  );
}

/**
 * The success toast of a delete, with Undo for {@link UNDO_MS}: Undo restores the record and
 * calls `onRestored` (to refresh lists), or shows the server's reason when it cannot (a clash).
 */
export function showDeletedToast(
  toasts: ToastApi,
  entity: ClientEntity,
  record: EntityRecord,
  message: string,
  texts: { restored: string; failed: (error: unknown) => string },
  onRestored: () => Promise<void> | void,
): void {
  const id = toasts.success(
    <UndoDeleteToast
      message={message}
      onUndo={async () => {
        toasts.dismiss(id);
        try {
          await restoreRecord(entity, record.id);
          toasts.success(texts.restored);
          await onRestored();
        } catch (error) {
          toasts.error(texts.failed(error));
        }
      }}
    />,
    { autoClose: UNDO_MS, closeOnClick: false },
  );
}
