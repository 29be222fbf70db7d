import { Badge, Box, Card, Flex, Grid, Heading, Table, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { describeError, ErrorState, formatNumber, LoadingState, useTranslation } from '../../../engine/index.js';
import type { DashboardData, JudgingStatus, LatestContest } from '../shared/dashboard-contract.js';
import { dashboardOptions } from './queries.js';

const STATUS_COLORS: Record<JudgingStatus, 'yellow' | 'blue' | 'green' | 'red'> = {
  not_graded_r1: 'yellow',
  not_graded_r2: 'blue',
  graded: 'green',
  cancelled: 'red',
};

function StatCard({ label, value }: { label: string; value: number }): ReactElement {
  const { i18n } = useTranslation();
  return (
    <Card size="2">
      <Text as="p" size="2" color="gray">
        {label}
      </Text>
      <Text as="p" size="7" weight="bold" data-testid="stat-value">
        {formatNumber(i18n, value)}
      </Text>
    </Card>
  );
}

/** A round panel's figure: its label above the number. */
function RoundFigure({ label, value }: { label: string; value: number }): ReactElement {
  const { i18n } = useTranslation();
  return (
    <Box>
      <Text as="p" size="2" color="gray">
        {label}
      </Text>
      <Text as="p" size="6" weight="bold">
        {formatNumber(i18n, value)}
      </Text>
    </Box>
  );
}

function RoundPanel({ round, juries, graded }: DashboardData['rounds'][number]): ReactElement {
  const { t } = useTranslation();
  return (
    <Card size="2" aria-labelledby={`round-${round}-title`}>
      <Heading as="h2" size="4" mb="3" id={`round-${round}-title`}>
        {t('pages.dashboard.round', { round })}
      </Heading>
      <Grid columns="2" gap="3">
        <RoundFigure label={t('pages.dashboard.roundJuries')} value={juries} />
        <RoundFigure label={t('pages.dashboard.gradedExams')} value={graded} />
      </Grid>
    </Card>
  );
}

function Jurors({ names }: { names: string[] }): ReactElement {
  const { t } = useTranslation();
  if (names.length === 0) return <Text color="gray">{t('pages.dashboard.noJurors')}</Text>;
  return <Text title={names.join(', ')}>{names.join(', ')}</Text>;
}

function LatestContests({ rows }: { rows: LatestContest[] }): ReactElement {
  const { t } = useTranslation();
  return (
    <Card size="2">
      <Flex justify="between" align="center" mb="3" gap="3" wrap="wrap">
        <Heading as="h2" size="4">
          {t('pages.dashboard.latestContests')}
        </Heading>
        <Link to="/manage-contest?sort=created_at&direction=desc">{t('pages.dashboard.viewAll')}</Link>
      </Flex>
      {rows.length === 0 ? (
        <Text color="gray">{t('pages.dashboard.noContests')}</Text>
      ) : (
        <Table.Root variant="surface" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('pages.dashboard.columns.id')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('pages.dashboard.columns.company')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('pages.dashboard.columns.categories')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('pages.dashboard.columns.juryR1')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('pages.dashboard.columns.juryR2')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('pages.dashboard.columns.status')}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.id}>
                <Table.RowHeaderCell>
                  <Link to={`/manage-contest/${row.id}`}>{row.id}</Link>
                </Table.RowHeaderCell>
                <Table.Cell>{row.company ?? t('common.not_provided')}</Table.Cell>
                <Table.Cell>{row.categories.join(', ') || t('common.not_provided')}</Table.Cell>
                <Table.Cell>
                  <Jurors names={row.juryR1} />
                </Table.Cell>
                <Table.Cell>
                  <Jurors names={row.juryR2} />
                </Table.Cell>
                <Table.Cell>
                  <Badge color={STATUS_COLORS[row.status]}>{t(`pages.dashboard.judging.${row.status}`)}</Badge>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Card>
  );
}

/**
 * The dashboard's judging panels, every figure from `GET /api/dashboard` (one request: the three
 * read the same query). The figures panel shows the loading and error states for all three; the
 * others show nothing until the figures are in.
 */

/** The stat cards: jurors, examinations, companies. */
export function JudgingFigures(): ReactElement {
  const { t } = useTranslation();
  const query = useQuery(dashboardOptions());
  if (query.isPending) return <LoadingState label={t('pages.dashboard.loading')} />;
  if (query.isError) return <ErrorState message={t('pages.dashboard.loadError', { message: describeError(query.error, t) })} />;
  const { totals } = query.data;
  return (
    <Grid columns={{ initial: '1', sm: '3' }} gap="3" aria-label={t('pages.dashboard.figures')} role="group">
      <StatCard label={t('pages.dashboard.totalJuries')} value={totals.juries} />
      <StatCard label={t('pages.dashboard.totalExams')} value={totals.exams} />
      <StatCard label={t('pages.dashboard.totalCompanies')} value={totals.companies} />
    </Grid>
  );
}

/** The Round 1 and Round 2 panels. */
export function JudgingRounds(): ReactElement | null {
  const { data } = useQuery(dashboardOptions());
  if (!data) return null;
  return (
    <Grid columns={{ initial: '1', md: '2' }} gap="3">
      {data.rounds.map((round) => (
        <RoundPanel key={round.round} {...round} />
      ))}
    </Grid>
  );
}

/** 'Latest Contests'. */
export function JudgingLatestContests(): ReactElement | null {
  const { data } = useQuery(dashboardOptions());
  if (!data) return null;
  return <LatestContests rows={data.latestContests} />;
}
