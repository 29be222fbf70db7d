import { Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDisplay } from '../../shared/descriptor/types.js';
import { isEmptyValue, type CellPlace } from './cell-types.js';
import { cellFor } from './registry.js';

/**
 * The value a display shows: `record[field]`, or for a `relation` cell the included related
 * record's `display` field (`contest.category.name`).
 */
export function valueOf(record: Record<string, unknown>, display: FieldDisplay): unknown {
  if (display.cell === 'relation' && display.relation) {
    const related = record[display.relation];
    if (related && typeof related === 'object') return (related as Record<string, unknown>)[display.display ?? 'name'];
    return undefined;
  }
  return record[display.field];
}

/** Props of {@link FieldValue}. */
export interface FieldValueProps {
  record: Record<string, unknown>;
  display: FieldDisplay;
  place: CellPlace;
  /** i18n key shown for an empty value on a detail page; default `common.not_provided`. */
  emptyKey?: string;
}

/**
 * One field of a record through its cell. An empty value shows the display's own placeholder
 * ('No strategy', 'Category #{{id}}' with the raw field as `id`), else 'Not provided' on a detail
 * page and a muted dash in a list.
 */
export function FieldValue({ record, display, place, emptyKey }: FieldValueProps): ReactElement {
  const { t } = useTranslation();
  const value = valueOf(record, display);
  if (isEmptyValue(value)) {
    if (display.empty) {
      return <Text color="gray">{t(display.empty, { id: record[display.field] ?? '' })}</Text>;
    }
    if (place === 'detail') return <Text color="gray">{t(emptyKey ?? 'common.not_provided')}</Text>;
    return (
      <Text color="gray" aria-label={t('common.not_provided')}>
        —
      </Text>
    );
  }
  const Cell = cellFor(display.cell);
  return <Cell value={value} record={record} display={display} place={place} />;
}
