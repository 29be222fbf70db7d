import { Flex, Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import type { FieldDisplay } from '../../shared/descriptor/types.js';
import { useTranslation } from '../i18n/use-translation.js';
import { type CellPlace, isEmptyValue } from './cell-types.js';
import { cellFor, isEmptyFor } from './registry.js';

/**
 * The value a display shows: `record[field]`, or for a `relation` cell the included related
 * record's `display` field (`record.category.name`).
 */
export function displayedValue(record: Record<string, unknown>, display: FieldDisplay): unknown {
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
  const value = displayedValue(record, display);
  const kind = display.cell === 'relation' ? (display.relationCell ?? 'text') : display.cell;
  const related = display.cell === 'relation' && display.relation ? record[display.relation] : undefined;
  const secondary =
    related && typeof related === 'object'
      ? (display.secondary ?? [])
          .map((field) => [field, (related as Record<string, unknown>)[field]] as const)
          .filter(([, item]) => !isEmptyValue(item))
          .map(([field, item]) => (field === 'id' ? `#${String(item)}` : String(item)))
      : [];
  // A related record whose shown field is empty still shows its other fields (a person with no name).
  const empty = isEmptyFor(kind, value);
  if (empty && secondary.length > 0) return <Secondary lines={secondary} />;
  if (empty && kind !== 'presence') {
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
  const Cell = cellFor(kind);
  const main = <Cell value={value} record={record} display={display} place={place} />;
  const note = display.notes?.[String(value)];
  if (note) {
    return (
      <Flex gap="2" align="center" wrap="wrap">
        {main}
        <Text color="gray" size="2">
          {t(note)}
        </Text>
      </Flex>
    );
  }
  if (secondary.length === 0) return main;
  return (
    <div className={COLUMN}>
      <span>{main}</span>
      <Secondary lines={secondary} />
    </div>
  );
}

// What <Flex direction="column" gap="0"> and <Text color="gray" size="1"> render, without their
// props work: a list shows these in every row of a relation column.
const COLUMN = 'rt-Flex rt-r-fd-column rt-r-gap-0';

/** Further fields of a related record, muted, one per line (a person's email and id). */
function Secondary({ lines }: { lines: string[] }): ReactElement {
  return (
    <div className={COLUMN}>
      {lines.map((line) => (
        <span key={line} data-accent-color="gray" className="rt-Text rt-r-size-1">
          {line}
        </span>
      ))}
    </div>
  );
}
