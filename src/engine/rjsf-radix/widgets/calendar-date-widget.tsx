import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { CalendarDatePicker } from '../../widgets/calendar.js';
import { boundsFromRules, type DateRule, isIsoDate } from '../../widgets/calendar-model.js';
import { useWidgetLabel } from '../../widgets/use-widget-label.js';

/** What the form engine may share with widgets: the form's current values and its field rules. */
interface DateFormContext {
  formData?: Record<string, unknown>;
  comparisons?: readonly DateRule[];
}

/** The tighter of two optional bounds (`YYYY-MM-DD` compares as text). */
function pick(side: 'min' | 'max', ...candidates: unknown[]): string | undefined {
  // Sorted as text: the latest lower bound and the earliest upper bound are the tighter ones.
  const days = candidates.filter(isIsoDate).sort();
  return side === 'min' ? days.at(-1) : days[0];
}

/**
 * RJSF widget `calendar-date` (also `date`): a `format: date` string picked on the calendar
 * (read-only field, stored `YYYY-MM-DD`, shown '05 Jan 2025'). Bounds: `ui:options.min` / `max`
 * (fixed days), `ui:options.minField` / `maxField` (another field's value), and the descriptor's
 * `comparisons` between date fields (end not before start, enforced on both fields). The last two
 * need the form's values, which the form engine shares as `formContext: { formData, comparisons }`.
 */
export function CalendarDateWidget(props: WidgetProps): ReactElement {
  const { id, htmlName, value, options, disabled, readonly, rawErrors, required, placeholder, onChange, onBlur } = props;
  const label = useWidgetLabel(props.label);
  const context = (props.registry.formContext ?? {}) as DateFormContext;
  const values = context.formData ?? {};
  const fromRules = boundsFromRules(props.name, context.comparisons ?? [], values);
  const sibling = (field: unknown) => (typeof field === 'string' ? values[field] : undefined);
  return (
    <CalendarDatePicker
      id={id}
      name={htmlName || id}
      value={typeof value === 'string' ? value : undefined}
      min={pick('min', options.min, sibling(options.minField), fromRules.min)}
      max={pick('max', options.max, sibling(options.maxField), fromRules.max)}
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
