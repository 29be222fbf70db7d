import { Badge, Box, Card, Flex, Grid, Heading, Table, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ReactElement } from 'react';
import { useTranslation } from '../../../engine/index.js';
import { Link } from 'react-router-dom';
import { describeError } from '../../../engine/index.js';
import { http } from '../../../engine/index.js';
import { formatNumber } from '../../../engine/index.js';
import { ErrorState, LoadingState } from '../../../engine/index.js';
import type { DashboardData, JudgingStatus, LatestContest } from '../shared/dashboard-contract.js';
import { usePageTitle } from '../../../app/use-page-title.js';

/** Query key of the dashboard figures. */
export const DASHBOARD_QUERY_KEY = ['dashboard'] as const;

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
 * `/dashboard`: the stat cards (jurors, examinations, companies), the Round 1 and Round 2 panels
 * and 'Latest Contests', every figure from `GET /api/dashboard`.
 */
// The results charts (chart.js) load in their own chunk, after the figures.
const DashboardCharts = lazy(() => import('../../results/client/dashboard-charts.js'));

export function DashboardPage(): ReactElement {
  const { t } = useTranslation();
  usePageTitle('pages.titles.dashboard');
  const query = useQuery({ queryKey: DASHBOARD_QUERY_KEY, queryFn: () => http.get<{ data: DashboardData }>('/dashboard') });
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.dashboard')}
      </Heading>
      {query.isPending ? (
        <LoadingState label={t('pages.dashboard.loading')} />
      ) : query.isError ? (
        <ErrorState message={t('pages.dashboard.loadError', { message: describeError(query.error, t) })} />
      ) : (
        <>
          <Grid columns={{ initial: '1', sm: '3' }} gap="3" aria-label={t('pages.dashboard.figures')} role="group">
            <StatCard label={t('pages.dashboard.totalJuries')} value={query.data.data.totals.juries} />
            <StatCard label={t('pages.dashboard.totalExams')} value={query.data.data.totals.exams} />
            <StatCard label={t('pages.dashboard.totalCompanies')} value={query.data.data.totals.companies} />
          </Grid>
          <Grid columns={{ initial: '1', md: '2' }} gap="3">
            {query.data.data.rounds.map((round) => (
              <RoundPanel key={round.round} {...round} />
            ))}
          </Grid>
          <LatestContests rows={query.data.data.latestContests} />
          <Suspense fallback={null}>
            <DashboardCharts />
          </Suspense>
        </>
      )}
    </Flex>
  );
}

export { DashboardPage as Component };
export default DashboardPage;
