import { Box, Card, Heading, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { type ReactElement, useEffect, useId, useRef } from 'react';
import { useTranslation } from '../../../engine/index.js';
import { intlLocale } from '../../../shared/format.js';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

/** The chart's data once for the canvas and once as a table, the alternative screen readers read. */
export interface ChartTable {
  columns: string[];
  rows: Array<Array<string | number>>;
}

/**
 * One chart (chart.js on a canvas, hidden from assistive technology) with its data as a table
 * under a disclosure: the same figures, readable without the picture.
 */
export function ChartFigure({ title, config, table }: { title: string; config: ChartConfiguration; table: ChartTable }): ReactElement {
  const { t, i18n } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const id = useId();
  // The axes' and tooltips' numbers in the reader's language (chart.js formats with `locale`).
  const locale = intlLocale(i18n.language);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, locale, ...config.options },
    });
    return () => chart.destroy();
  }, [config, locale]);
  return (
    <Card asChild>
      <figure aria-labelledby={id} style={{ margin: 0 }}>
        <Heading as="h3" size="3" id={id} mb="2">
          {title}
        </Heading>
        <Box aria-hidden="true" style={{ position: 'relative', height: 220 }}>
          <canvas ref={canvas} />
        </Box>
        <details>
          <summary>
            <Text size="2">{t('results.charts.tableAlternative')}</Text>
          </summary>
          <Table.Root size="1">
            <VisuallyHidden asChild>
              <caption>{title}</caption>
            </VisuallyHidden>
            <Table.Header>
              <Table.Row>
                {table.columns.map((c) => (
                  <Table.ColumnHeaderCell key={c}>{c}</Table.ColumnHeaderCell>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {table.rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a data row is plain values with no id (labels may repeat); the table is rebuilt whole from the chart's data
                <Table.Row key={i}>
                  {row.map((cell, j) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a cell's column position is its identity
                    <Table.Cell key={j}>{cell}</Table.Cell>
                  ))}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </details>
      </figure>
    </Card>
  );
}
