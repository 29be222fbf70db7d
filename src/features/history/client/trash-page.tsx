import { ResetIcon, TrashIcon } from '@radix-ui/react-icons';
import { Button, Card, Table, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import {
  describeError,
  ErrorState,
  entityTextValues,
  findEntity,
  formatLongDate,
  HistoryPager,
  LoadingState,
  mutationErrorText,
  queryKeys,
  restoreRecord,
  ScreenHeader,
  useDialogs,
  useMetaEntities,
  usePageTitle,
  useToasts,
  useTranslation,
} from '../../../engine/index.js';
import type { TrashItem } from '../shared/trash-item.js';
import { historyApi, invalidateHistory, trashOptions } from './queries.js';

/** `/trash` (admins): deleted records of the last 30 days, restored one by one or emptied for good. */
export function TrashPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const toast = useToasts();
  usePageTitle('history.trash.title');
  const entities = useMetaEntities().data;
  const client = useQueryClient();
  const dialogs = useDialogs();
  const [page, setPage] = useState(1);
  const trash = useQuery(trashOptions(page));
  const date = (value: string) => {
    const text = formatLongDate(value, i18n.language, true);
    return text === 'invalid' || text === null ? value : text;
  };

  const restore = async (item: TrashItem) => {
    const entity = findEntity(entities, item.entity);
    if (!entity) return;
    try {
      await restoreRecord(entity, item.record_id);
      toast.success(t('history.restored', { name: item.title ?? `#${item.record_id}` }));
      await client.invalidateQueries({ queryKey: queryKeys.entity(entity.name) });
    } catch (error) {
      toast.error(mutationErrorText(error, t, t('history.restore_failed')));
    }
    await invalidateHistory(client);
  };

  const empty = async () => {
    await dialogs.confirm({
      title: t('history.trash.empty'),
      description: t('history.trash.empty_confirm', { count: trash.data?.meta.total ?? 0 }),
      confirmText: t('common.yes'),
      cancelText: t('common.no'),
      onConfirm: async () => {
        await historyApi.emptyTrash();
        toast.success(t('history.trash.emptied'));
        await invalidateHistory(client);
      },
    });
  };

  let body: ReactElement;
  if (trash.isPending) body = <LoadingState />;
  else if (trash.error) body = <ErrorState message={t('history.load_error', { message: describeError(trash.error, t) })} />;
  else if (trash.data.data.length === 0) body = <Text>{t('history.trash.none')}</Text>;
  else
    body = (
      <>
        <Table.Root variant="surface">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('history.trash.record')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('history.trash.kind')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('history.trash.deleted')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('history.trash.expires')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {trash.data.data.map((item) => {
              const entity = findEntity(entities, item.entity);
              return (
                <Table.Row key={item.id}>
                  <Table.RowHeaderCell>{item.title ?? `#${item.record_id}`}</Table.RowHeaderCell>
                  <Table.Cell>{t(`history.entities.${item.entity}`, { defaultValue: entity ? entityTextValues(entity, t).label : item.entity })}</Table.Cell>
                  <Table.Cell>
                    {t('history.by', { name: item.deleted_by?.name ?? t('history.system') })} · {date(item.deleted_at)}
                  </Table.Cell>
                  <Table.Cell>{date(item.expires_at)}</Table.Cell>
                  <Table.Cell>
                    <Button size="1" variant="soft" disabled={!entity?.permissions.delete} onClick={() => restore(item)}>
                      <ResetIcon aria-hidden />
                      {t('history.trash.restore')}
                    </Button>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <HistoryPager page={page} pages={trash.data.meta.last_page} onPage={setPage} />
      </>
    );

  return (
    <>
      <ScreenHeader
        trail={[{ label: t('history.trash.title') }]}
        heading={t('history.trash.title')}
        subheading={t('history.trash.retention')}
        actions={
          <Button color="red" variant="soft" disabled={!trash.data?.meta.total} onClick={empty}>
            <TrashIcon aria-hidden />
            {t('history.trash.empty')}
          </Button>
        }
      />
      <Card size="2">{body}</Card>
    </>
  );
}

export { TrashPage as Component };
export default TrashPage;
