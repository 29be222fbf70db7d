import { Badge, Button, Card, Flex, Table, Text } from '@radix-ui/themes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import type { ClientEntity, FieldDisplay } from '../../shared/descriptor/types.js';
import { formatLongDate } from '../cells/dates.js';
import { FieldValue } from '../cells/index.js';
import { describeError } from '../data/api-error.js';
import { fieldLabel } from '../data/entity-labels.js';
import { http } from '../data/http-client.js';
import { queryKeys } from '../data/query-keys.js';
import { useTranslation } from '../i18n/use-translation.js';
import { ErrorState, LoadingState } from '../ui/screen-states.js';

/** One audit row as `GET /api/{entity}/{id}/history` and `GET /api/audit` return it. */
export interface AuditEntry {
  id: number;
  created_at: string;
  action: string;
  entity: string | null;
  entity_id: string | null;
  ip: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
  details: Record<string, unknown>;
  user: { id: number; name: string | null; email: string | null } | null;
}

/** A page of audit rows. */
export interface AuditPage {
  data: AuditEntry[];
  meta: { current_page: number; last_page: number; total: number; per_page: number };
}

const PER_PAGE = 20;
const ACTION_COLORS: Record<string, 'green' | 'blue' | 'red' | 'amber'> = { create: 'green', update: 'blue', delete: 'red', restore: 'amber' };

/** How the detail page shows a field (its display), or a plain text display for other fields. */
function displayOf(entity: ClientEntity, field: string): FieldDisplay {
  for (const section of entity.detail.sections) {
    const display = section.fields.find((d) => d.field === field && !d.relation);
    if (display) return display;
  }
  return { field, cell: 'text' };
}

/** The changed fields of one audit row: label, value before and after, as the detail shows them. */
export function ChangesTable({ entity, entry }: { entity?: ClientEntity; entry: AuditEntry }): ReactElement | null {
  const { t } = useTranslation();
  const fields = Object.keys(entry.changes ?? {});
  if (fields.length === 0) return null;
  const value = (field: string, v: unknown) => {
    if (!entity)
      return <Text size="2">{v === null || v === undefined ? t('history.empty_value') : typeof v === 'object' ? JSON.stringify(v) : String(v)}</Text>;
    const display = displayOf(entity, field);
    return <FieldValue record={{ [field]: v }} display={display} place="detail" emptyKey="history.empty_value" />;
  };
  return (
    <Table.Root size="1" variant="surface">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>{t('history.field')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('history.before')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('history.after')}</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {fields.map((field) => (
          <Table.Row key={field}>
            <Table.RowHeaderCell>{entity ? fieldLabel(entity, displayOf(entity, field), t) : field}</Table.RowHeaderCell>
            <Table.Cell>{value(field, entry.changes[field]!.before)}</Table.Cell>
            <Table.Cell>{value(field, entry.changes[field]!.after)}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/** Who did it and when, in the reader's language: 'Updated by Ana · 24 November 2026 10:12'. */
export function EntryHeading({ entry }: { entry: AuditEntry }): ReactElement {
  const { t, i18n } = useTranslation();
  const when = formatLongDate(entry.created_at, i18n.language, true);
  const who = entry.user ? (entry.user.name ?? entry.user.email ?? `#${entry.user.id}`) : t('history.system');
  return (
    <Flex gap="2" align="center" wrap="wrap">
      <Badge color={ACTION_COLORS[entry.action] ?? 'gray'}>{t([`history.actions.${entry.action}`, 'history.actions.other'], { action: entry.action })}</Badge>
      <Text size="2" weight="medium">
        {t('history.by', { name: who })}
      </Text>
      <Text size="2" color="gray">
        {when === 'invalid' || when === null ? entry.created_at : when}
      </Text>
    </Flex>
  );
}

/** Newer / 'Page 2 of 5' / Older under a history or audit list; nothing when there is one page. */
export function HistoryPager(props: { page: number; pages: number; onPage: (page: number) => void }): ReactElement | null {
  const { t } = useTranslation();
  const { page, pages, onPage } = props;
  if (pages <= 1) return null;
  return (
    <Flex gap="2" justify="end" align="center" mt="3">
      <Button variant="soft" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('history.newer')}
      </Button>
      <Text size="2">{t('history.page', { page, pages })}</Text>
      <Button variant="soft" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('history.older')}
      </Button>
    </Flex>
  );
}

/**
 * The History tab of a detail page: the record's audit rows, newest first, each with who, when
 * and the changed fields before and after, formatted as the detail formats them; paged.
 */
export function RecordHistory({ entity, id }: { entity: ClientEntity; id: number }): ReactElement {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...queryKeys.detail(entity.name, id), 'history', page],
    queryFn: ({ signal }) => http.get<AuditPage>(`/${entity.endpoint}/${id}/history`, { query: { page, per_page: PER_PAGE }, signal }),
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <LoadingState />;
  if (query.error) return <ErrorState message={t('history.load_error', { message: describeError(query.error, t) })} />;
  const { data, meta } = query.data;
  if (data.length === 0)
    return (
      <Card size="2">
        <Text>{t('history.none')}</Text>
      </Card>
    );
  return (
    <Flex direction="column" gap="3" aria-label={t('history.tab')} role="feed">
      {data.map((entry) => (
        <Card size="2" key={entry.id} asChild>
          <article aria-label={t([`history.actions.${entry.action}`, 'history.actions.other'], { action: entry.action })}>
            <Flex direction="column" gap="2">
              <EntryHeading entry={entry} />
              <ChangesTable entity={entity} entry={entry} />
            </Flex>
          </article>
        </Card>
      ))}
      <HistoryPager page={page} pages={meta.last_page} onPage={setPage} />
    </Flex>
  );
}
