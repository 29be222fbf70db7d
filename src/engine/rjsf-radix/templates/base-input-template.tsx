import { TextField } from '@radix-ui/themes';
import { ariaDescribedByIds, type BaseInputTemplateProps, getInputProps } from '@rjsf/utils';
import type { ChangeEvent, ReactElement } from 'react';

type InputType = 'text' | 'email' | 'password' | 'number' | 'url' | 'date' | 'datetime-local' | 'time' | 'tel' | 'search' | 'hidden';

/**
 * The text-like inputs (text, email, password, number, url, date) as a Radix `TextField`. An
 * emptied input reports `undefined` so a required field says 'X is required'.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps): ReactElement {
  const {
    id,
    htmlName,
    value,
    readonly,
    disabled,
    autofocus,
    onBlur,
    onFocus,
    onChange,
    onChangeOverride,
    options,
    schema,
    rawErrors,
    type,
    placeholder,
    required,
  } = props;
  const inputProps = getInputProps(schema, type, options);
  const isNumber = inputProps.type === 'number';
  const inputValue = isNumber ? (value || value === 0 ? value : '') : (value ?? '');
  const invalid = (rawErrors?.length ?? 0) > 0;

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = event.target.value;
    if (next === '') return onChange(options.emptyValue);
    onChange(isNumber && !Number.isNaN(Number(next)) ? Number(next) : next);
  };

  return (
    <TextField.Root
      id={id}
      name={htmlName || id}
      type={inputProps.type as InputType}
      step={inputProps.step}
      min={inputProps.min}
      max={inputProps.max}
      value={inputValue as string | number}
      placeholder={placeholder}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      required={required}
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      color={invalid ? 'red' : undefined}
      variant="surface"
      size="2"
      onChange={onChangeOverride ?? handleChange}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
