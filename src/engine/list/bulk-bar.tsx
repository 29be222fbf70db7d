import { Button, Callout, Card, Flex, Link, Progress, Select, Text } from '@radix-ui/themes';
import { type ReactElement, useEffect, useMemo, useState } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { formatNumber } from '../../shared/format.js';
import { describeError, translateItem } from '../data/api-error.js';
import { fieldLabel } from '../data/entity-labels.js';
import { toListQuery } from '../data/entity-queries.js';
import { http, type QueryParams } from '../data/http-client.js';
import { useInvalidateEntity } from '../data/use-entity-mutations.js';
import { useTranslation } from '../i18n/use-translation.js';
import { useDialogs } from '../ui/dialog-context.js';
import { useToasts } from '../ui/toast-context.js';
import type { EntityListController } from './use-entity-list.js';

/** Ids sent per bulk request: the progress moves after each. */
const CHUNK = 100;

/** The rows a list has selected: some ids on the page, or every row matching the filter. */
export interface BulkSelection {
  ids: ReadonlySet<number>;
  allMatching: boolean;
  toggle(id: number): void;
  togglePage(): void;
  selectAllMatching(): void;
  clear(): void;
  pageSelected: boolean;
}

/** The selection of a list, cleared whenever the list's filters, search or sort change. */
export function useBulkSelection(list: EntityListController): BulkSelection {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const key = JSON.stringify([list.filters, list.search, list.sort]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: clears the selection when the filters, search or sort change, compared by value through `key`
  useEffect(() => {
    // Kept as it is when already empty: a new empty set would render the whole list again (on mount too).
    setIds((current) => (current.size === 0 ? current : new Set()));
    setAllMatching(false);
  }, [key]);
  const pageIds = list.rows.map((row) => row.id);
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => ids.has(id));
  return {
    ids,
    allMatching,
    pageSelected,
    toggle: (id) => {
      setAllMatching(false);
      setIds((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    togglePage: () => {
      setAllMatching(false);
      setIds((current) => {
        const next = new Set(current);
        for (const id of pageIds)
          if (pageSelected) next.delete(id);
          else next.add(id);
        return next;
      });
    },
    selectAllMatching: () => setAllMatching(true),
    clear: () => {
      setIds(new Set());
      setAllMatching(false);
    },
  };
}

/** Whether a list offers bulk actions: its descriptor opts in (`bulk`), and the admin may delete or set a field. */
export function hasBulkActions(entity: ClientEntity): boolean {
  if (!entity.bulk) return false;
  return (entity.permissions.delete && entity.list.actions.includes('delete')) || (entity.permissions.update && (entity.bulk?.set?.length ?? 0) > 0);
}

interface Failure {
  id: number;
  message: string;
  keyword?: string;
  messageKey?: string;
  params?: Record<string, unknown>;
}

/**
 * The bar over a list with selected rows: how many, 'Select all N matching', then Delete or Set
 * a field to a value (the descriptor's `bulk.set`), each after a confirm naming the count. Runs in
 * chunks with a progress bar and lists the rows that failed (a row still in use), the others done.
 */
export function BulkBar({ list, selection }: { list: EntityListController; selection: BulkSelection }): ReactElement | null {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const dialogs = useDialogs();
  const invalidate = useInvalidateEntity(list.entity);
  const { entity } = list;
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [failures, setFailures] = useState<Failure[]>([]);
  const [field, setField] = useState<string>('');
  const fields = entity.permissions.update ? (entity.bulk?.set ?? []) : [];
  const count = selection.allMatching ? list.total : selection.ids.size;
  const n = (value: number) => formatNumber(value, i18n.language);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `fields` is a new array on each render: its names (with the entity and `t`) decide when the choices change
  const choices = useMemo(
    () =>
      fields.flatMap((name) => {
        const property = entity.jsonSchema.properties?.[name];
        const label = fieldLabel(entity, { field: name }, t);
        const values: Array<{ value: unknown; text: string }> =
          property?.type === 'boolean' || (Array.isArray(property?.type) && property.type.includes('boolean'))
            ? [
                { value: true, text: t('common.status.active') },
                { value: false, text: t('common.status.inactive') },
              ]
            : ((property?.enum ?? []) as string[]).map((value) => ({
                value,
                text: t([`entities.${entity.name}.enum.${name}.${value}`, `common.status.${value}`], { defaultValue: value }),
              }));
        return values.map((choice) => ({ key: `${name}=${JSON.stringify(choice.value)}`, field: name, label, ...choice }));
      }),
    [fields.join(), entity, t],
  );

  if (count === 0 && failures.length === 0) return null;

  const targetIds = async (): Promise<number[]> => {
    if (!selection.allMatching) return [...selection.ids];
    const request = { page: 1, sort: list.sort.field, direction: list.sort.direction, search: list.search, filters: list.filters };
    const query: QueryParams = toListQuery(request);
    delete query.page;
    return (await http.get<{ data: number[] }>(`/${entity.endpoint}/ids`, { query })).data;
  };

  const run = async (body: { action: 'delete' } | { action: 'set'; field: string; value: unknown }) => {
    const ids = await targetIds();
    const failed: Failure[] = [];
    let done = 0;
    setFailures([]);
    setProgress({ done: 0, total: ids.length });
    try {
      for (let start = 0; start < ids.length; start += CHUNK) {
        const res = await http.post<{ data: { done: number; failed: Failure[] } }>(`/${entity.endpoint}/bulk`, {
          ...body,
          ids: ids.slice(start, start + CHUNK),
        });
        done += res.data.done;
        failed.push(...res.data.failed);
        setProgress({ done: Math.min(ids.length, start + CHUNK), total: ids.length });
      }
      toasts.success(t('dataio.bulk.done', { count: done }));
    } catch (error) {
      toasts.error(t('dataio.bulk.failed', { message: describeError(error, t) }));
    } finally {
      setProgress(null);
      setFailures(failed);
      selection.clear();
      await invalidate();
    }
  };

  const confirmDelete = () =>
    dialogs.confirm({
      title: t('dataio.bulk.delete_title'),
      description: t('dataio.bulk.delete_confirm', { count }),
      confirmText: t('dataio.bulk.delete'),
      onConfirm: () => void run({ action: 'delete' }),
    });

  const confirmSet = (key: string) => {
    const choice = choices.find((c) => c.key === key);
    if (!choice) return;
    setField('');
    void dialogs.confirm({
      title: t('dataio.bulk.set_title'),
      description: t('dataio.bulk.set_confirm', { count, field: choice.label, value: choice.text }),
      onConfirm: () => void run({ action: 'set', field: choice.field, value: choice.value }),
    });
  };

  return (
    <Card size="1" mb="3">
      <Flex direction="column" gap="2">
        {count > 0 && (
          <Flex gap="3" align="center" wrap="wrap">
            <Text size="2" weight="medium" role="status">
              {t('dataio.bulk.selected', { count })}
            </Text>
            {selection.pageSelected && !selection.allMatching && list.total > selection.ids.size && (
              <Link asChild size="2">
                <button type="button" onClick={selection.selectAllMatching}>
                  {t('dataio.bulk.select_all', { count: list.total, total: n(list.total) })}
                </button>
              </Link>
            )}
            {entity.permissions.delete && entity.list.actions.includes('delete') && (
              <Button size="1" color="red" variant="soft" disabled={progress !== null} onClick={() => void confirmDelete()}>
                {t('dataio.bulk.delete')}
              </Button>
            )}
            {choices.length > 0 && (
              <Select.Root value={field} onValueChange={confirmSet} disabled={progress !== null}>
                <Select.Trigger variant="soft" placeholder={t('dataio.bulk.set')} aria-label={t('dataio.bulk.set')} />
                <Select.Content>
                  {choices.map((choice) => (
                    <Select.Item key={choice.key} value={choice.key}>
                      {t('dataio.bulk.set_option', { field: choice.label, value: choice.text })}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            )}
            <Link asChild size="2" color="gray">
              <button type="button" onClick={selection.clear}>
                {t('dataio.bulk.clear')}
              </button>
            </Link>
          </Flex>
        )}
        {progress && (
          <Flex direction="column" gap="1">
            <Progress
              value={progress.total ? (progress.done / progress.total) * 100 : 0}
              aria-label={t('dataio.bulk.progress', { done: n(progress.done), total: n(progress.total) })}
            />
            <Text size="1">{t('dataio.bulk.progress', { done: n(progress.done), total: n(progress.total) })}</Text>
          </Flex>
        )}
        {failures.length > 0 && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>
              {t('dataio.bulk.failures', { count: failures.length })}
              <Flex as="span" direction="column" mt="1">
                {failures.slice(0, 50).map((failure) => (
                  <span key={failure.id}>
                    #{failure.id}:{' '}
                    {failure.messageKey
                      ? translateItem({ path: '', keyword: failure.keyword ?? '', messageKey: failure.messageKey, params: failure.params ?? {} }, t)
                      : failure.message}
                  </span>
                ))}
              </Flex>
            </Callout.Text>
          </Callout.Root>
        )}
      </Flex>
    </Card>
  );
}
