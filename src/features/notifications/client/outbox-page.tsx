import { CopyIcon, ReloadIcon } from '@radix-ui/react-icons';
import { Badge, Button, Callout, Card, Checkbox, Flex, IconButton, Select, Table, Text, TextField, Tooltip } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import {
  describeError,
  ErrorState,
  HistoryPager,
  LoadingState,
  type QueryParams,
  ScreenHeader,
  useFormat,
  usePageTitle,
  useToasts,
  useTranslation,
} from '../../../engine/index.js';
import type { OutboxItem, OutboxStatus } from '../index.js';
import { invalidateOutbox, outboxAction, outboxOptions } from './outbox-queries.js';

const STATUSES: readonly OutboxStatus[] = ['queued', 'sending', 'sent', 'failed', 'cancelled'];
const STATUS_COLOR: Record<OutboxStatus, 'gray' | 'blue' | 'green' | 'red' | 'orange'> = {
  queued: 'blue',
  sending: 'orange',
  sent: 'green',
  failed: 'red',
  cancelled: 'gray',
};
const ANY = '__any';
const PER_PAGE = 25;

/**
 * `/outbox` (admins): every mail the server wrote, newest first, filtered by status and template,
 * paged; retry or cancel the selected ones; copy the link of an unsent invitation or reset (when no
 * mail server is set, the admin passes it on by hand).
 */
export function OutboxScreen(): ReactElement {
  const { t } = useTranslation();
  const f = useFormat();
  const toast = useToasts();
  const client = useQueryClient();
  usePageTitle('outbox.title');
  const [status, setStatus] = useState('');
  const [template, setTemplate] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [shownLink, setShownLink] = useState<number | null>(null);
  const query: QueryParams = { page, per_page: PER_PAGE };
  if (status) query.status = status;
  if (template) query.template = template;
  const outbox = useQuery(outboxOptions(query));

  const act = useMutation({
    mutationFn: ({ action, ids }: { action: 'retry' | 'cancel'; ids: number[] }) => outboxAction(action, ids),
    onSuccess: (result, { action }) => {
      toast.success(t(`outbox.${action}Done`, { count: result.ids.length }));
      setSelected(new Set());
      void invalidateOutbox(client);
    },
    onError: (error) => toast.error(describeError(error, t)),
  });

  const templateLabel = (name: string) => t(`outbox.templates.${name}`, { defaultValue: name });
  const filterBy = (set: (value: string) => void) => (value: string) => {
    set(value === ANY ? '' : value);
    setPage(1);
    setSelected(new Set());
  };
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const copyLink = async (message: OutboxItem) => {
    try {
      await navigator.clipboard.writeText(message.link ?? '');
      toast.success(t('outbox.linkCopied', { email: message.recipient }));
    } catch {
      // No clipboard (a page served over plain HTTP): show the link to copy by hand.
      setShownLink(message.id);
    }
  };

  let body: ReactElement;
  if (outbox.isPending) body = <LoadingState />;
  else if (outbox.error) body = <ErrorState message={t('outbox.loadError', { message: describeError(outbox.error, t) })} />;
  else if (outbox.data.data.length === 0)
    body = (
      <Card size="2">
        <Text>{status || template ? t('outbox.noneFiltered') : t('outbox.none')}</Text>
      </Card>
    );
  else {
    const rows = outbox.data.data;
    const allSelected = rows.every((m) => selected.has(m.id));
    body = (
      <>
        <Table.Root variant="surface">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell width="1">
                <Checkbox
                  aria-label={t('outbox.selectPage')}
                  checked={allSelected}
                  onCheckedChange={(on) => setSelected(on === true ? new Set(rows.map((m) => m.id)) : new Set())}
                />
              </Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('outbox.columns.recipient')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('outbox.columns.template')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('outbox.columns.language')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('outbox.columns.status')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('outbox.columns.attempts')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('outbox.columns.times')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('outbox.columns.link')}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((message) => (
              <Table.Row key={message.id}>
                <Table.Cell>
                  <Checkbox
                    aria-label={t('outbox.select', { email: message.recipient })}
                    checked={selected.has(message.id)}
                    onCheckedChange={(on) => toggle(message.id, on === true)}
                  />
                </Table.Cell>
                <Table.RowHeaderCell>
                  <Text as="div">{message.recipient}</Text>
                  <Text as="div" size="1" color="gray">
                    {message.subject}
                  </Text>
                </Table.RowHeaderCell>
                <Table.Cell>{templateLabel(message.template)}</Table.Cell>
                <Table.Cell>{t(`outbox.languages.${message.language}`, { defaultValue: message.language })}</Table.Cell>
                <Table.Cell>
                  <Badge color={STATUS_COLOR[message.status]}>{t(`outbox.statuses.${message.status}`)}</Badge>
                  {message.last_error && message.status !== 'sent' ? (
                    <Text as="div" size="1" color="red">
                      {message.last_error}
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell>{f.number(message.attempts)}</Table.Cell>
                <Table.Cell>
                  <Text as="div" size="1">
                    {t('outbox.created', { time: f.dateTime(message.created_at, 'short') })}
                  </Text>
                  <Text as="div" size="1" color="gray">
                    {message.sent_at
                      ? t('outbox.sentAt', { time: f.dateTime(message.sent_at, 'short') })
                      : message.status === 'queued'
                        ? t('outbox.nextAttempt', { time: f.dateTime(message.next_attempt_at, 'short') })
                        : ''}
                  </Text>
                </Table.Cell>
                <Table.Cell>
                  {message.link ? (
                    shownLink === message.id ? (
                      <TextField.Root
                        readOnly
                        value={message.link}
                        aria-label={t('outbox.linkFor', { email: message.recipient })}
                        onFocus={(e) => e.target.select()}
                        autoFocus
                      />
                    ) : (
                      <Tooltip content={t('outbox.copyLink')}>
                        <IconButton variant="soft" aria-label={t('outbox.copyLinkFor', { email: message.recipient })} onClick={() => void copyLink(message)}>
                          <CopyIcon aria-hidden />
                        </IconButton>
                      </Tooltip>
                    )
                  ) : null}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <HistoryPager page={page} pages={Math.max(1, Math.ceil(outbox.data.meta.total / PER_PAGE))} onPage={setPage} />
      </>
    );
  }

  const meta = outbox.data?.meta;
  const ids = [...selected];
  return (
    <>
      <ScreenHeader
        trail={[{ label: t('outbox.title') }]}
        heading={t('outbox.title')}
        actions={
          <Flex gap="2">
            <Button variant="soft" disabled={ids.length === 0 || act.isPending} onClick={() => act.mutate({ action: 'retry', ids })}>
              <ReloadIcon aria-hidden />
              {t('outbox.retry', { count: ids.length })}
            </Button>
            <Button variant="soft" color="red" disabled={ids.length === 0 || act.isPending} onClick={() => act.mutate({ action: 'cancel', ids })}>
              {t('outbox.cancel', { count: ids.length })}
            </Button>
          </Flex>
        }
      />
      {meta && !meta.smtp ? (
        <Callout.Root color="amber" mb="4">
          <Callout.Text>{t('outbox.noSmtp')}</Callout.Text>
        </Callout.Root>
      ) : null}
      <Card size="2" mb="4">
        <Flex gap="3" wrap="wrap" align="end">
          <Flex direction="column">
            <Text size="2" as="div">
              {t('outbox.columns.status')}
            </Text>
            <Select.Root value={status || ANY} onValueChange={filterBy(setStatus)}>
              <Select.Trigger aria-label={t('outbox.columns.status')} />
              <Select.Content>
                <Select.Item value={ANY}>{t('outbox.all')}</Select.Item>
                {STATUSES.map((s) => (
                  <Select.Item key={s} value={s}>
                    {meta ? t('outbox.statusCount', { status: t(`outbox.statuses.${s}`), count: meta.counts[s] }) : t(`outbox.statuses.${s}`)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex direction="column">
            <Text size="2" as="div">
              {t('outbox.columns.template')}
            </Text>
            <Select.Root value={template || ANY} onValueChange={filterBy(setTemplate)}>
              <Select.Trigger aria-label={t('outbox.columns.template')} />
              <Select.Content>
                <Select.Item value={ANY}>{t('outbox.all')}</Select.Item>
                {(meta?.templates ?? []).map((name) => (
                  <Select.Item key={name} value={name}>
                    {templateLabel(name)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
        </Flex>
      </Card>
      {body}
    </>
  );
}

export { OutboxScreen as Component };
export default OutboxScreen;
