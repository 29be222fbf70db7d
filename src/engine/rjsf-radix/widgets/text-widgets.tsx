import { TextArea } from '@radix-ui/themes';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { BaseInputTemplate } from '../templates/base-input-template.js';

/** A one-line text input. */
export function TextWidget(props: WidgetProps): ReactElement {
  return <BaseInputTemplate {...props} />;
}

/** An e-mail input. */
export function EmailWidget(props: WidgetProps): ReactElement {
  return <BaseInputTemplate {...props} type="email" options={{ autocomplete: 'email', ...props.options }} />;
}

/** A password input (never autofilled with the admin's own password). */
export function PasswordWidget(props: WidgetProps): ReactElement {
  return <BaseInputTemplate {...props} type="password" options={{ autocomplete: 'new-password', ...props.options }} />;
}

/** A number input; integers step by one. */
export function NumberWidget(props: WidgetProps): ReactElement {
  return <BaseInputTemplate {...props} />;
}

/** A URL input. */
export function UrlWidget(props: WidgetProps): ReactElement {
  return <BaseInputTemplate {...props} type="url" />;
}

/** A native date input storing YYYY-MM-DD (the calendar widget replaces it where registered). */
export function DateWidget(props: WidgetProps): ReactElement {
  return <BaseInputTemplate {...props} type="date" />;
}

/** A multi-line text input; an emptied one reports `undefined`. */
export function TextareaWidget(props: WidgetProps): ReactElement {
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, rawErrors, placeholder, required } = props;
  const invalid = (rawErrors?.length ?? 0) > 0;
  const rows = typeof options.rows === 'number' ? options.rows : 4;
  return (
    <TextArea
      id={id}
      name={htmlName || id}
      value={typeof value === 'string' ? value : ''}
      placeholder={placeholder}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      rows={rows}
      required={required}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      color={invalid ? 'red' : undefined}
      variant="surface"
      resize="vertical"
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}

/** A hidden value. */
export function HiddenWidget({ id, htmlName, value }: WidgetProps): ReactElement {
  return <input type="hidden" id={id} name={htmlName || id} value={value === undefined || value === null ? '' : String(value)} />;
}
