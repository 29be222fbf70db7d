import { DownloadIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Select, Text, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import {
  ChangesTable,
  describeError,
  EntryHeading,
  ErrorState,
  entityText,
  entityTextValues,
  findEntity,
  HistoryPager,
  LoadingState,
  type QueryParams,
  ScreenHeader,
  saveFile,
  useMetaEntities,
  usePageTitle,
  useToasts,
  useTranslation,
} from '../../../engine/index.js';
import { auditOptions, historyApi } from './queries.js';

const ACTIONS = ['create', 'update', 'delete', 'restore', 'trash.empty', 'auth.login', 'auth.login_failed', 'auth.logout', 'auth.password_change'];
const ANY = '__any';

/**
 * `/audit-log` (admins): every audit row, newest first, filtered by person (user id), entity,
 * action and time, paged, and exported as CSV with the same filters.
 */
export function AuditPageScreen(): ReactElement {
  const { t } = useTranslation();
  const toast = useToasts();
  usePageTitle('history.audit.title');
  const entities = useMetaEntities().data;
  const [filters, setFilters] = useState({ user_id: '', entity: '', action: '', from: '', to: '' });
  const [page, setPage] = useState(1);
  const query: QueryParams = { page, per_page: 25 };
  for (const [key, value] of Object.entries(filters)) if (value) query[key] = key === 'to' ? `${value}T23:59:59.999Z` : value;
  const audit = useQuery(auditOptions(query));
  const set = (key: keyof typeof filters) => (value: string) => {
    setFilters({ ...filters, [key]: value === ANY ? '' : value });
    setPage(1);
  };
  const exportCsv = async () => {
    try {
      const { page: _page, per_page: _perPage, ...rest } = query;
      const text = await historyApi.auditCsv(rest);
      saveFile(new Blob([text], { type: 'text/csv' }), `audit-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      toast.error(describeError(error, t));
    }
  };

  let body: ReactElement;
  if (audit.isPending) body = <LoadingState />;
  else if (audit.error) body = <ErrorState message={t('history.load_error', { message: describeError(audit.error, t) })} />;
  else if (audit.data.data.length === 0)
    body = (
      <Card size="2">
        <Text>{t('history.audit.none')}</Text>
      </Card>
    );
  else
    body = (
      <Flex direction="column" gap="3">
        {audit.data.data.map((entry) => {
          const entity = entry.entity ? findEntity(entities, entry.entity) : undefined;
          return (
            <Card size="2" key={entry.id}>
              <Flex direction="column" gap="2">
                <Flex gap="3" align="center" wrap="wrap">
                  <EntryHeading entry={entry} />
                  <Text size="2" color="gray">
                    {entry.entity ? t(`history.entities.${entry.entity}`, { defaultValue: entity ? entityTextValues(entity, t).label : entry.entity }) : ''}{' '}
                    {entry.entity_id ? `#${entry.entity_id}` : ''} {entry.ip ? `· ${entry.ip}` : ''}
                  </Text>
                </Flex>
                <ChangesTable entity={entity} entry={entry} />
              </Flex>
            </Card>
          );
        })}
        <HistoryPager page={page} pages={audit.data.meta.last_page} onPage={setPage} />
      </Flex>
    );

  return (
    <>
      <ScreenHeader
        trail={[{ label: t('history.audit.title') }]}
        heading={t('history.audit.title')}
        actions={
          <Button variant="soft" onClick={exportCsv}>
            <DownloadIcon aria-hidden />
            {t('history.audit.export')}
          </Button>
        }
      />
      <Card size="2" mb="4">
        <Flex gap="3" wrap="wrap" align="end">
          <label>
            <Text size="2" as="div">
              {t('history.audit.person')}
            </Text>
            <TextField.Root inputMode="numeric" value={filters.user_id} placeholder="#" onChange={(e) => set('user_id')(e.target.value.replace(/\D/g, ''))} />
          </label>
          <Flex direction="column">
            <Text size="2" as="div">
              {t('history.audit.entity')}
            </Text>
            <Select.Root value={filters.entity || ANY} onValueChange={set('entity')}>
              <Select.Trigger aria-label={t('history.audit.entity')} />
              <Select.Content>
                <Select.Item value={ANY}>{t('history.audit.all')}</Select.Item>
                {(entities ?? []).map((e) => (
                  <Select.Item key={e.name} value={e.name}>
                    {entityText(e, 'title', t)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex direction="column">
            <Text size="2" as="div">
              {t('history.audit.action')}
            </Text>
            <Select.Root value={filters.action || ANY} onValueChange={set('action')}>
              <Select.Trigger aria-label={t('history.audit.action')} />
              <Select.Content>
                <Select.Item value={ANY}>{t('history.audit.all')}</Select.Item>
                {ACTIONS.map((a) => (
                  <Select.Item key={a} value={a}>
                    {t([`history.actions.${a}`, 'history.actions.other'], { action: a })}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <label>
            <Text size="2" as="div">
              {t('history.audit.from')}
            </Text>
            <TextField.Root type="date" value={filters.from} onChange={(e) => set('from')(e.target.value)} />
          </label>
          <label>
            <Text size="2" as="div">
              {t('history.audit.to')}
            </Text>
            <TextField.Root type="date" value={filters.to} onChange={(e) => set('to')(e.target.value)} />
          </label>
        </Flex>
      </Card>
      {body}
    </>
  );
}

export { AuditPageScreen as Component };
export default AuditPageScreen;
