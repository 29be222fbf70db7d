import { Grid } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { ChartConfiguration } from 'chart.js';
import { type ReactElement, useMemo } from 'react';
import { LoadingState, useTranslation } from '../../../engine/index.js';
import { formatDate, formatNumber } from '../../../shared/format.js';
import { distribution } from '../shared/chart-data.js';
import type { ResultsOverview } from '../shared/results-contract.js';
import { ChartFigure } from './chart-figure.js';
import { resultsOverviewOptions } from './queries.js';

const COLOURS = ['#3e63dd', '#e5484d', '#30a46c', '#f76b15', '#8e4ec6', '#12a594', '#ffc53d', '#8b8d98'];

/**
 * The dashboard's charts panel over every exam: score distribution per category, juror leniency,
 * grading progress (chart.js: its own chunk, loaded after the page's first render).
 */
export default function DashboardCharts(): ReactElement {
  const { t, i18n } = useTranslation();
  const query = useQuery(resultsOverviewOptions());
  const charts = useMemo(() => {
    const data = query.data;
    if (!data) return [];
    // Per category, its latest round that has scores.
    const latest = new Map<string, ResultsOverview['exams'][number]>();
    for (const exam of data.exams) if (exam.scores.length) latest.set(`${exam.category ?? exam.examId}`, exam);
    const categories = [...latest.values()];
    // Scores as a percentage of each exam's maximum, so categories with different maxima compare.
    const bands = categories.map((c) =>
      distribution(
        c.scores.map((s) => (s / c.maxScore) * 100),
        100,
        5,
      ),
    );
    const labels = distribution([], 100, 5).map((b) => `${b.from}–${b.to}%`);
    const name = (c: ResultsOverview['exams'][number]) => `${c.category ?? `#${c.examId}`} (${t(`entities.jury.rounds.${c.round}`)})`;
    return [
      {
        title: t('results.charts.distribution'),
        config: {
          type: 'bar',
          data: {
            labels,
            datasets: categories.map((c, i) => ({ label: name(c), data: bands[i]!.map((b) => b.count), backgroundColor: COLOURS[i % COLOURS.length] })),
          },
        } as ChartConfiguration,
        table: { columns: [t('results.charts.category'), ...labels], rows: categories.map((c, i) => [name(c), ...bands[i]!.map((b) => b.count)]) },
      },
      {
        title: t('results.charts.leniency'),
        config: {
          type: 'bar',
          data: {
            labels: data.jurors.map((j) => j.name),
            datasets: [{ label: t('results.charts.difference'), data: data.jurors.map((j) => j.leniency), backgroundColor: COLOURS[0] }],
          },
        } as ChartConfiguration,
        table: {
          columns: [t('results.columns.juror'), t('results.charts.jurorMean'), t('results.charts.difference')],
          rows: data.jurors.map((j) => [j.name, j.mean, j.leniency]),
        },
      },
      {
        title: t('results.charts.progress'),
        config: {
          type: 'line',
          data: {
            labels: data.progress.map((p) => formatDate(p.date, i18n.language, { style: 'short' }) ?? p.date),
            datasets: [{ label: t('results.charts.gradesSubmitted'), data: data.progress.map((p) => p.submitted), borderColor: COLOURS[0] }],
          },
        } as ChartConfiguration,
        table: {
          columns: [t('results.charts.date'), t('results.charts.gradesSubmitted')],
          rows: data.progress.map((p) => [formatDate(p.date, i18n.language) ?? p.date, formatNumber(p.submitted, i18n.language)]),
        },
      },
    ];
  }, [query.data, t, i18n.language]);
  if (!query.data) return <LoadingState label={t('results.charts.loading')} />;
  return (
    <Grid columns={{ initial: '1', md: '3' }} gap="3">
      {charts.map((chart) => (
        <ChartFigure key={chart.title} {...chart} />
      ))}
    </Grid>
  );
}
