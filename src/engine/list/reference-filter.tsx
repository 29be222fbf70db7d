import { type ReactElement, useMemo } from 'react';
import type { ClientEntity, FilterOptionFields, ListFilter } from '../../shared/descriptor/types.js';
import { findEntity, useMetaEntities } from '../data/use-meta.js';
import { referenceLoaders } from '../widgets/reference-loaders.js';
import { SearchableSelect, type SelectOption } from '../widgets/searchable-select.js';

type Row = Record<string, unknown>;

const present = (value: unknown): value is string | number | boolean => value !== undefined && value !== null && value !== '';

/**
 * The option of a record in a reference filter: its label field followed by `(#id)` (only `#id`
 * when the record has no label), and the description field under it.
 */
export function toFilterOption(row: Row, fields: Required<Pick<FilterOptionFields, 'label'>> & FilterOptionFields): SelectOption {
  const id = row.id as string | number;
  const label = row[fields.label];
  const description = fields.description ? row[fields.description] : undefined;
  return {
    value: id,
    label: present(label) ? `${String(label)} (#${String(id)})` : `#${String(id)}`,
    description: present(description) ? String(description) : undefined,
  };
}

/** The entity a reference filter picks from: the target of the belongsTo relation on its field. */
export function referenceTargetName(entity: ClientEntity, filter: ListFilter): string | undefined {
  return Object.values(entity.relations).find((relation) => relation.field === filter.field)?.entity;
}

/**
 * Option loaders of a reference filter: pages of the target's list endpoint searched on the
 * server (`search`, `per_page` ≤ 100), and one record by id for a value from the URL.
 */
export function referenceFilterLoaders(target: ClientEntity, optionFields: FilterOptionFields = {}) {
  const fields = { ...optionFields, label: optionFields.label ?? target.titleField };
  return referenceLoaders(target, (row) => toFilterOption(row, fields));
}

/** Props of {@link ReferenceFilter}. */
export interface ReferenceFilterProps {
  entity: ClientEntity;
  filter: ListFilter;
  id: string;
  label: string;
  /** The chosen record's id as the URL holds it, or '' for none. */
  value: string;
  onChange(value: string): void;
}

/**
 * A `reference` filter input: the searchable select over the records of the entity the filter's
 * relation points at, searched on the server as the user types. Its value is the chosen record's
 * id; a value from a shared or reloaded URL is shown by the record's label, looked up by id.
 */
export function ReferenceFilter({ entity, filter, id, label, value, onChange }: ReferenceFilterProps): ReactElement {
  const meta = useMetaEntities();
  const targetName = referenceTargetName(entity, filter);
  const target = findEntity(meta.data, targetName ?? '');
  const loaders = useMemo(() => (target ? referenceFilterLoaders(target, filter.optionFields) : undefined), [target, filter.optionFields]);
  return (
    <SearchableSelect
      id={id}
      label={label}
      value={value}
      loadOptions={loaders?.loadOptions}
      resolveOption={loaders?.resolveOption}
      loading={meta.isPending}
      disabled={!meta.isPending && !target}
      clearable
      onChange={(next) => onChange(next === undefined ? '' : String(next))}
    />
  );
}
