import { Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import type { CellProps } from '../../../engine/index.js';
import { useTranslation } from '../../../engine/index.js';
import { formatScore } from '../../../shared/format.js';
import { examCriteriaOptions } from './queries.js';

/** A grade's scores as stored (`{criterion key: score}`), or null when there are none. */
export function gradeScoresOf(value: unknown): Record<string, number> | null {
  const parsed = typeof value === 'string' ? safeParse(value) : value;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const entries = Object.entries(parsed as Record<string, unknown>).filter(([, v]) => typeof v === 'number');
  return entries.length ? (Object.fromEntries(entries) as Record<string, number>) : null;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A grade's per-criterion scores on its detail page (`"cell": "grade-scores"` on the `scores`
 * field): one row per criterion of the grade's exam with its label, score and maximum (a key the
 * exam no longer has shows by its key). The detail shows the remarks and the reopen reason beside it.
 */
export function GradeScoresCell({ value, record }: CellProps): ReactElement {
  const { t, i18n } = useTranslation();
  const scores = gradeScoresOf(value) ?? {};
  const criteria = useQuery(examCriteriaOptions(Number(record.exam_id))).data ?? [];
  const rows = [
    ...criteria.map((c) => ({ key: c.key, label: c.label || c.key, maximum: c.maximum ?? null })),
    ...Object.keys(scores)
      .filter((key) => !criteria.some((c) => c.key === key))
      .map((key) => ({ key, label: key, maximum: null })),
  ];
  return rows.length === 0 ? (
    <Text size="2">{t('results.gradeScores.empty')}</Text>
  ) : (
    <Table.Root size="1" variant="surface">
      <VisuallyHidden asChild>
        <caption>{t('results.gradeScores.caption')}</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>{t('results.gradeScores.criterion')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('results.gradeScores.score')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('results.gradeScores.maximum')}</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {rows.map((r) => (
          <Table.Row key={r.key}>
            <Table.RowHeaderCell>{r.label}</Table.RowHeaderCell>
            <Table.Cell>{scores[r.key] === undefined ? '–' : formatScore(scores[r.key], i18n.language)}</Table.Cell>
            <Table.Cell>{formatScore(r.maximum, i18n.language)}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
