import { Button, Card, Flex, Table, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { describeError, ErrorState, formatDateTime, LoadingState, NoticeState, ScreenHeader, usePageTitle, useTranslation } from '../../../engine/index.js';
import { myEntriesOptions } from './queries.js';
import { EntryStatus } from './status-badge.js';

/**
 * `/entries` (entrants): the signed-in entrant's entries with their edition, category, status and
 * last change, each opening its page; 'New entry'. Loading, error and empty states.
 */
export default function EntriesScreen(): ReactElement {
  const { t, i18n } = useTranslation();
  usePageTitle('entrants.list.title');
  const entries = useQuery(myEntriesOptions());
  const header = (
    <ScreenHeader
      trail={[{ label: t('entrants.list.title'), url: '/entries' }]}
      heading={t('entrants.list.title')}
      subheading={t('entrants.list.subtitle')}
      actions={
        <Button asChild>
          <Link to="/entries/new">{t('entrants.list.new')}</Link>
        </Button>
      }
    />
  );
  if (entries.isPending)
    return (
      <>
        {header}
        <LoadingState label={t('entrants.list.loading')} />
      </>
    );
  if (entries.isError)
    return (
      <>
        {header}
        <ErrorState message={describeError(entries.error, t)} />
      </>
    );
  if (entries.data.length === 0)
    return (
      <>
        {header}
        <NoticeState message={t('entrants.list.empty')} />
      </>
    );
  return (
    <>
      {header}
      <Card>
        <Table.Root aria-label={t('entrants.list.title')}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('entrants.list.entry')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('entrants.list.edition')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('entrants.list.category')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('entrants.list.status')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('entrants.list.updated')}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {entries.data.map((entry) => (
              <Table.Row key={entry.id} data-testid="entry-row">
                <Table.RowHeaderCell>
                  <Link to={`/entries/${entry.id}`}>{t('entrants.entry.name', { id: entry.id })}</Link>
                </Table.RowHeaderCell>
                <Table.Cell>{entry.edition_name ?? '—'}</Table.Cell>
                <Table.Cell>{entry.category_name ?? '—'}</Table.Cell>
                <Table.Cell>
                  <Flex gap="2" align="center" wrap="wrap">
                    <EntryStatus status={entry.status} />
                    {entry.awards.map((award) => (
                      <Text key={award.award} size="1" color="green">
                        {award.award}
                      </Text>
                    ))}
                  </Flex>
                </Table.Cell>
                <Table.Cell>{formatDateTime(entry.updated_at, i18n.language)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Card>
    </>
  );
}
