import { Table, Text, VisuallyHidden } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import type { CellProps } from '../../../engine/index.js';
import { formatNumber, useTranslation } from '../../../engine/index.js';
import { type CriterionDraft, weightShares } from '../shared/criteria-rules.js';

/** The criteria in a stored value: the rows that are objects, or none. */
export function criteriaOf(value: unknown): CriterionDraft[] {
  return Array.isArray(value) ? value.filter((row): row is CriterionDraft => row !== null && typeof row === 'object') : [];
}

/**
 * Cell `criteria-table`: an exam's criteria as a table (label, key, weight with its share of the
 * total, maximum, guidance); in a list, the labels joined.
 */
export function CriteriaTableCell({ value, place }: CellProps): ReactElement {
  const { t, i18n } = useTranslation();
  const rows = criteriaOf(value);
  if (place === 'list') return <Text>{rows.map((row) => row.label).join(', ')}</Text>;
  const shares = weightShares(rows);
  return (
    <Table.Root size="1" variant="surface">
      <VisuallyHidden asChild>
        <caption>{t('judging.criteria.table')}</caption>
      </VisuallyHidden>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>{t('judging.criteria.label')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('judging.criteria.key')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell justify="end">{t('judging.criteria.weight')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell justify="end">{t('judging.criteria.maximum')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('judging.criteria.guidance')}</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {rows.map((row, i) => (
          <Table.Row key={row.key ?? i}>
            <Table.RowHeaderCell>{row.label}</Table.RowHeaderCell>
            <Table.Cell>
              <code>{row.key}</code>
            </Table.Cell>
            <Table.Cell justify="end">
              {typeof row.weight === 'number' ? formatNumber(i18n, row.weight) : ''}
              <Text color="gray" size="1">
                {' '}
                ({t('judging.criteria.share', { share: shares[i] ?? 0 })})
              </Text>
            </Table.Cell>
            <Table.Cell justify="end">{typeof row.maximum === 'number' ? formatNumber(i18n, row.maximum) : ''}</Table.Cell>
            <Table.Cell>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{row.guidance ?? ''}</Text>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
