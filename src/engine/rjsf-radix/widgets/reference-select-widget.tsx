import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import type { ClientEntity } from '../../../shared/descriptor/types.js';
import { findEntity, useMetaEntities } from '../../data/use-meta.js';
import { referenceLoaders as loadersOf } from '../../widgets/reference-loaders.js';
import { SearchableSelect, type SelectOption } from '../../widgets/searchable-select.js';
import { useWidgetLabel } from '../../widgets/use-widget-label.js';

/** `ui:options` of the reference select. */
export interface ReferenceSelectOptions {
  /** The referenced entity's name (`category`). */
  entity: string;
  /** Field shown as the option label; default the entity's `titleField`. */
  labelField?: string;
  /** Field shown under the label (an e-mail, a company). */
  descriptionField?: string;
}

type Row = Record<string, unknown>;

/** Turns a record of the referenced entity into an option. */
export function toReferenceOption(row: Row, labelField: string, descriptionField?: string): SelectOption {
  const id = row.id as string | number;
  const label = row[labelField];
  const description = descriptionField ? row[descriptionField] : undefined;
  return {
    value: id,
    label: label === undefined || label === null || label === '' ? `#${String(id)}` : String(label),
    description: description === undefined || description === null || description === '' ? undefined : String(description),
  };
}

/**
 * Option loaders for a reference to `entity` (see {@link loadersOf}), showing its label field and
 * the description field under it.
 */
export function referenceLoaders(entity: ClientEntity, options: Omit<ReferenceSelectOptions, 'entity'> = {}) {
  const labelField = options.labelField ?? entity.titleField;
  return loadersOf(entity, (row) => toReferenceOption(row, labelField, options.descriptionField));
}

/**
 * RJSF widget `reference-select`: the id of a record of another entity (`ui:options.entity`),
 * picked through the searchable select with the options searched on that entity's list endpoint
 * as the user types, so it stays fast on tables of any size.
 */
export function ReferenceSelectWidget(props: WidgetProps): ReactElement {
  const { id, value, options, disabled, readonly, rawErrors, required, placeholder, onChange, onBlur } = props;
  const label = useWidgetLabel(props.label);
  const meta = useMetaEntities();
  const entity = findEntity(meta.data, String(options.entity ?? ''));
  const labelField = typeof options.labelField === 'string' ? options.labelField : undefined;
  const descriptionField = typeof options.descriptionField === 'string' ? options.descriptionField : undefined;
  const loaders = entity ? referenceLoaders(entity, { labelField, descriptionField }) : undefined;
  return (
    <SearchableSelect
      id={id}
      label={label}
      value={value as string | number | undefined}
      loadOptions={loaders?.loadOptions}
      resolveOption={loaders?.resolveOption}
      loading={meta.isPending}
      placeholder={placeholder || undefined}
      disabled={disabled || readonly || (!meta.isPending && !entity)}
      invalid={(rawErrors?.length ?? 0) > 0}
      clearable={!required}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(next) => {
        const numeric = typeof next === 'string' && /^\d+$/.test(next) ? Number(next) : next;
        onChange(numeric ?? options.emptyValue);
      }}
      onBlur={() => onBlur(id, value)}
    />
  );
}
