import { Grid } from '@radix-ui/themes';
import type { ChartConfiguration } from 'chart.js';
import { type ReactElement, useMemo } from 'react';
import { useTranslation } from '../../../engine/index.js';
import { formatDate, formatNumber } from '../../../shared/format.js';
import { distribution, finalScores, leniency } from '../shared/chart-data.js';
import type { ExamResultsData } from '../shared/results-contract.js';
import { ChartFigure } from './chart-figure.js';

const ACCENT = '#3e63dd';
const GRAY = '#8b8d98';

/** The results screen's charts: score distribution, juror leniency and grading progress, each with its table. */
export default function ResultsCharts({ data }: { data: ExamResultsData }): ReactElement {
  const { t, i18n } = useTranslation();
  const charts = useMemo(() => {
    const bands = distribution(finalScores(data), data.exam.max_score);
    const bandLabels = bands.map((b) => `${b.from}–${b.to}`);
    const jurors = leniency(data);
    return [
      {
        title: `${t('results.charts.distribution')} (${data.exam.category ?? data.exam.name})`,
        config: {
          type: 'bar',
          data: { labels: bandLabels, datasets: [{ label: t('results.charts.entries'), data: bands.map((b) => b.count), backgroundColor: ACCENT }] },
        } as ChartConfiguration,
        table: { columns: [t('results.charts.band'), t('results.charts.entries')], rows: bands.map((b, i) => [bandLabels[i]!, b.count]) },
      },
      {
        title: t('results.charts.leniency'),
        config: {
          type: 'bar',
          data: {
            labels: jurors.map((j) => j.name),
            datasets: [
              { label: t('results.charts.jurorMean'), data: jurors.map((j) => j.mean), backgroundColor: ACCENT },
              { label: t('results.charts.examMean'), data: jurors.map((j) => j.examMean), backgroundColor: GRAY },
            ],
          },
        } as ChartConfiguration,
        table: {
          columns: [t('results.columns.juror'), t('results.charts.jurorMean'), t('results.charts.examMean'), t('results.charts.difference')],
          rows: jurors.map((j) => [j.name, j.mean, j.examMean, j.difference]),
        },
      },
      {
        title: t('results.charts.progress'),
        config: {
          type: 'line',
          data: {
            labels: data.progress.map((p) => formatDate(p.date, i18n.language, { style: 'short' }) ?? p.date),
            datasets: [{ label: t('results.charts.gradesSubmitted'), data: data.progress.map((p) => p.submitted), borderColor: ACCENT }],
          },
        } as ChartConfiguration,
        table: {
          columns: [t('results.charts.date'), t('results.charts.gradesSubmitted')],
          rows: data.progress.map((p) => [formatDate(p.date, i18n.language) ?? p.date, formatNumber(p.submitted, i18n.language)]),
        },
      },
    ];
  }, [data, t, i18n.language]);
  return (
    <Grid columns={{ initial: '1', md: '3' }} gap="4">
      {charts.map((chart) => (
        <ChartFigure key={chart.title} {...chart} />
      ))}
    </Grid>
  );
}
