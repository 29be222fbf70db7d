import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { isIsoDate } from '../../widgets/calendar-model.js';
import { CalendarDatePicker } from '../../widgets/calendar.js';
import { useWidgetLabel } from '../../widgets/use-widget-label.js';

/** The form's current values, when the form engine shares them through `formContext.formData`. */
function siblingValue(props: WidgetProps, field: unknown): unknown {
  if (typeof field !== 'string') return undefined;
  const data = (props.registry.formContext as { formData?: Record<string, unknown> } | undefined)?.formData;
  return data?.[field];
}

function bound(fixed: unknown, fromField: unknown): string | undefined {
  if (isIsoDate(fromField)) return fromField;
  return isIsoDate(fixed) ? fixed : undefined;
}

/**
 * RJSF widget `calendar-date`: a `format: date` string picked on the calendar (read-only field,
 * stored `YYYY-MM-DD`, shown '05 Jan 2025'). `ui:options`: `min` / `max` (fixed days) and
 * `minField` / `maxField` (another field of the form bounding this one, e.g. an end date not
 * before the start date; read from `formContext.formData` when the form engine provides it).
 */
export function CalendarDateWidget(props: WidgetProps): ReactElement {
  const { id, htmlName, value, options, disabled, readonly, rawErrors, required, placeholder, onChange, onBlur } = props;
  const label = useWidgetLabel(props.label);
  return (
    <CalendarDatePicker
      id={id}
      name={htmlName || id}
      value={typeof value === 'string' ? value : undefined}
      min={bound(options.min, siblingValue(props, options.minField))}
      max={bound(options.max, siblingValue(props, options.maxField))}
      disabled={disabled || readonly}
      required={required}
      invalid={(rawErrors?.length ?? 0) > 0}
      placeholder={placeholder || undefined}
      aria-label={props.hideLabel ? label : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(next) => onChange(next ?? options.emptyValue)}
      onBlur={() => onBlur(id, value)}
    />
  );
}
