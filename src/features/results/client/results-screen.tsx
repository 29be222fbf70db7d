import { Badge, Callout, Card, Flex, Heading, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactElement, Suspense } from 'react';
import { Link, useParams } from 'react-router-dom';
import { describeError, ErrorState, LoadingState, ScreenHeader, usePageTitle, useTranslation } from '../../../engine/index.js';
import { formatDateTime, formatNumber, formatScore } from '../../../shared/format.js';
import type { RankingBasis } from '../shared/aggregate.js';
import type { ExamResultsData, ResultsEntry } from '../shared/results-contract.js';
import { AwardOverride } from './award-override.js';
import { examResultsOptions } from './queries.js';
import { ResultsActions, ResultsTools } from './results-actions.js';

// chart.js stays out of every other screen: its chunk loads only here (and on the dashboard's charts).
const ResultsCharts = lazy(() => import('./results-charts.js'));

/** A score or mean in the reader's language (at most 2 decimals), a dash when there is none. */
const number = (value: number | null, language: string) => formatScore(value, language);

/** The results table's column that holds the final score of each ranking basis. */
const BASIS_COLUMN: Record<RankingBasis, string> = { normalised: 'normalised', trimmed_mean: 'trimmedMean', mean: 'mean' };

function EntryRow({ data, entry, language }: { data: ExamResultsData; entry: ResultsEntry; language: string }) {
  const { t } = useTranslation();
  return (
    <Table.Row>
      <Table.Cell>{entry.position}</Table.Cell>
      <Table.RowHeaderCell>{entry.rank ?? t('results.notRanked')}</Table.RowHeaderCell>
      <Table.Cell style={{ maxWidth: '16rem' }}>
        <Text weight="medium">#{entry.contestId}</Text>
        {entry.campaign && (
          <Text as="div" size="1" color="gray">
            {entry.campaign}
          </Text>
        )}
        {entry.company && (
          <Text as="div" size="1" color="gray">
            {entry.company}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell>{`${entry.submitted} / ${entry.assigned}`}</Table.Cell>
      {(['mean', 'trimmedMean', 'normalised'] as const).map((key) => (
        <Table.Cell key={key}>
          {BASIS_COLUMN[data.ranking] === key ? <Text weight="bold">{number(entry[key], language)}</Text> : number(entry[key], language)}
          {key === 'normalised' && entry.rawGrades > 0 && (
            <Text as="div" size="1" color="amber" title={t('results.fallbackTitle')}>
              {t('results.fallback', { count: entry.rawGrades })}
            </Text>
          )}
        </Table.Cell>
      ))}
      <Table.Cell>
        {number(entry.spread, language)}
        {entry.moderation && (
          <Text as="div" size="1">
            <Link to={`/manage-exam/${data.exam.id}/moderation`}>
              <Badge color="orange" style={{ whiteSpace: 'normal' }}>
                {t('results.moderationFlag')}
              </Badge>
            </Link>
          </Text>
        )}
      </Table.Cell>
      <Table.Cell>
        {entry.award ? <Badge color="amber">{entry.award.name}</Badge> : entry.awardOverridden ? <Badge color="gray">{t('results.awardNone')}</Badge> : ''}
        {entry.awardOverridden && (
          <>
            <Text as="div" size="1" color="gray">
              {t('results.overridden', { reason: entry.awardReason ?? '' })}
            </Text>
            <Text as="div" size="1" color="gray">
              {t('results.awardByRule', { name: entry.ruleAward?.name ?? t('results.awardNone') })}
            </Text>
          </>
        )}
        <AwardOverride data={data} entry={entry} />
      </Table.Cell>
    </Table.Row>
  );
}

/**
 * The results table: one row per entry in display order: rank, the entry (campaign and company
 * under it), grades submitted, mean, trimmed mean, normalised score (with the entry's raw-kept
 * grades), spread with the moderation flag (a link to moderation), and award. The column of the
 * exam's ranking basis is marked; it fits a 1,280 px window.
 */
export function ResultsTable({ data }: { data: ExamResultsData }): ReactElement {
  const { t, i18n } = useTranslation();
  const columns = ['position', 'rank', 'entry', 'submitted', 'mean', 'trimmedMean', 'normalised', 'spread', 'award'];
  const basisColumn = BASIS_COLUMN[data.ranking];
  return (
    <Table.Root variant="surface" size="1">
      <VisuallyHidden asChild>
        <caption>{t('results.title')}</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          {columns.map((c) => (
            // The award's buttons keep their width (a table squeezes a cell's inline buttons otherwise).
            <Table.ColumnHeaderCell key={c} aria-sort={c === basisColumn ? 'descending' : undefined} style={c === 'award' ? { minWidth: '9rem' } : undefined}>
              {t(`results.columns.${c}`)}
              {c === basisColumn && ' ↓'}
            </Table.ColumnHeaderCell>
          ))}
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {data.entries.map((entry) => (
          <EntryRow key={entry.contestId} data={data} entry={entry} language={i18n.language} />
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/** `/manage-exam/:id/results`: an exam's results, its actions (shortlist, finalise, export) and charts. */
export default function ResultsScreen(): ReactElement {
  const { t, i18n } = useTranslation();
  const examId = Number(useParams().id);
  const query = useQuery(examResultsOptions(examId));
  const data = query.data;
  usePageTitle('results.title');
  const trail = [
    { label: t('nav.examinations'), url: '/manage-exam' },
    ...(data ? [{ label: data.exam.name, url: `/manage-exam/${examId}` }] : []),
    { label: t('results.title') },
  ];
  if (query.isError)
    return (
      <ErrorState message={t('results.loadError', { message: describeError(query.error, t) })} back={{ to: '/manage-exam', label: t('nav.examinations') }} />
    );
  if (!data) return <LoadingState />;
  const notes = data.jurors.filter((j) => j.raw);
  return (
    <>
      <ScreenHeader
        trail={trail}
        heading={t('results.titleOf', { name: data.exam.name })}
        subheading={t('results.summary', {
          mean: number(data.examMean, i18n.language),
          max: formatNumber(data.exam.max_score, i18n.language),
          submitted: formatNumber(data.submitted, i18n.language),
          assigned: formatNumber(data.assigned, i18n.language),
        })}
        actions={<ResultsActions data={data} />}
      />
      <Flex direction="column" gap="4">
        {data.finalised && (
          <Callout.Root color="green" role="status">
            <Callout.Text>{t('results.finalised', { date: formatDateTime(data.finalised.at, i18n.language) })}</Callout.Text>
          </Callout.Root>
        )}
        <ResultsTools data={data} />
        <Flex gap="3" align="center" wrap="wrap">
          <Text as="p" size="2" weight="medium" role="note">
            {t('results.basisNote', { basis: t(`results.basis.${data.ranking}`) })}
          </Text>
          <Link to={`/manage-exam/${examId}/moderation`}>
            {t('results.moderation.open')} ({data.entries.filter((e) => e.moderation).length})
          </Link>
        </Flex>
        <Text as="p" size="2" color="gray">
          {t('results.formula', { threshold: number(data.moderationThreshold, i18n.language) })}
        </Text>
        {notes.length > 0 && (
          <Card>
            <ul aria-label={t('results.columns.rawKept')} style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
              {notes.map((j) => (
                <li key={j.jurorId}>
                  <Text size="2">{t(`results.rawNote.${j.raw}`, { name: j.name })}</Text>
                </li>
              ))}
            </ul>
          </Card>
        )}
        {data.entries.length === 0 ? <Text>{t('results.empty')}</Text> : <ResultsTable data={data} />}
        <Heading as="h2" size="4">
          {t('results.charts.distribution')} · {t('results.charts.leniency')} · {t('results.charts.progress')}
        </Heading>
        <Suspense fallback={<LoadingState label={t('results.charts.loading')} />}>
          <ResultsCharts data={data} />
        </Suspense>
      </Flex>
    </>
  );
}
