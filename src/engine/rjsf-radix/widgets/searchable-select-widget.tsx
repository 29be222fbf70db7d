import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { useTranslation } from '../../i18n/use-translation.js';
import { SearchableSelect, type SelectOption } from '../../widgets/searchable-select.js';
import { useWidgetLabel } from '../../widgets/use-widget-label.js';
import { ReferenceSelectWidget } from './reference-select-widget.js';

/**
 * RJSF widget `searchable-select`: an enum picked through the searchable select, its options the
 * enum values with the labels the form engine translated (`ui:enumNames`) and, optionally,
 * descriptions from `ui:options.descriptions` (value → i18n key). With `ui:options.entity` it is
 * the reference select instead: the id of a record of that entity, searched on the server.
 */
export function SearchableSelectWidget(props: WidgetProps): ReactElement {
  return typeof props.options.entity === 'string' ? <ReferenceSelectWidget {...props} /> : <EnumSelect {...props} />;
}

function EnumSelect(props: WidgetProps): ReactElement {
  const { id, value, options, disabled, readonly, rawErrors, required, placeholder, onChange, onBlur } = props;
  const { t } = useTranslation();
  const label = useWidgetLabel(props.label);
  const descriptions = (options.descriptions ?? {}) as Record<string, string>;
  const choices: SelectOption[] = (options.enumOptions ?? []).map((option) => ({
    value: option.value as string | number,
    label: option.label,
    description: descriptions[String(option.value)] ? t(descriptions[String(option.value)]!) : undefined,
  }));
  return (
    <SearchableSelect
      id={id}
      label={label}
      value={value as string | number | undefined}
      options={choices}
      placeholder={placeholder || undefined}
      disabled={disabled || readonly}
      invalid={(rawErrors?.length ?? 0) > 0}
      clearable={!required}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(next) => onChange(next ?? options.emptyValue)}
      onBlur={() => onBlur(id, value)}
    />
  );
}
