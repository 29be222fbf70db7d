import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchableSelect, type SelectOption } from '../../widgets/searchable-select.js';

/** The field's label, translated when a descriptor gave an i18n key (nested fields are not pre-translated). */
export function useWidgetLabel(label: string | undefined): string | undefined {
  const { t } = useTranslation();
  return label ? t(label, { defaultValue: label }) : undefined;
}

/**
 * RJSF widget `searchable-select`: an enum picked through the searchable select, its options the
 * enum values with the labels the form engine translated (`ui:enumNames`) and, optionally,
 * descriptions from `ui:options.descriptions` (value → i18n key).
 */
export function SearchableSelectWidget(props: WidgetProps): ReactElement {
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
