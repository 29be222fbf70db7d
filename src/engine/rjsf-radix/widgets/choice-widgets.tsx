import { Checkbox, Flex, RadioGroup, Select, Text } from '@radix-ui/themes';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { useTranslation } from '../../i18n/use-translation.js';
import { labelId } from '../templates/field-template.js';

/** The option index of `value` in the enum options (as a string for Radix), or '' when none. */
function indexOf(options: WidgetProps['options'], value: unknown): string {
  const index = (options.enumOptions ?? []).findIndex((option) => option.value === value);
  return index >= 0 ? String(index) : '';
}

function valueAt(options: WidgetProps['options'], index: string): unknown {
  return options.enumOptions?.[Number(index)]?.value;
}

/** A Radix select for an enum; its trigger is labelled by the field label. */
export function SelectWidget(props: WidgetProps): ReactElement {
  const { id, options, value, disabled, readonly, onChange, onBlur, rawErrors, placeholder, required } = props;
  const { t } = useTranslation();
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <Select.Root
      value={indexOf(options, value)}
      disabled={disabled || readonly}
      required={required}
      onValueChange={(index) => onChange(valueAt(options, index))}
      onOpenChange={(open) => !open && onBlur(id, value)}
    >
      <Select.Trigger
        id={id}
        placeholder={placeholder || t('common.select.placeholder')}
        aria-labelledby={`${labelId(id)} ${id}`}
        aria-invalid={invalid || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        color={invalid ? 'red' : undefined}
        variant="surface"
      />
      <Select.Content position="popper">
        {(options.enumOptions ?? []).map((option, index) => (
          <Select.Item key={String(option.value)} value={String(index)}>
            {option.label}
          </Select.Item>
        ))}
      </Select.Content>
    </Select.Root>
  );
}

/** A Radix radio group for an enum, laid out in a row. */
export function RadioWidget(props: WidgetProps): ReactElement {
  const { id, options, value, disabled, readonly, onChange, onBlur, rawErrors, required } = props;
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <RadioGroup.Root
      id={id}
      value={indexOf(options, value)}
      disabled={disabled || readonly}
      required={required}
      aria-labelledby={labelId(id)}
      aria-invalid={invalid || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onValueChange={(index) => onChange(valueAt(options, index))}
      onBlur={() => onBlur(id, value)}
    >
      <Flex gap="4" wrap="wrap">
        {(options.enumOptions ?? []).map((option, index) => (
          <Text as="label" size="2" key={String(option.value)}>
            <Flex gap="2" align="center">
              <RadioGroup.Item value={String(index)} id={`${id}-${index}`} />
              {option.label}
            </Flex>
          </Text>
        ))}
      </Flex>
    </RadioGroup.Root>
  );
}

/** A checkbox for a boolean, its label beside it. */
export function CheckboxWidget(props: WidgetProps): ReactElement {
  const { id, value, disabled, readonly, onChange, onBlur, label, rawErrors } = props;
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <Checkbox
          id={id}
          checked={value === true}
          disabled={disabled || readonly}
          aria-invalid={invalid || undefined}
          aria-describedby={ariaDescribedByIds(id)}
          onCheckedChange={(checked) => onChange(checked === true)}
          onBlur={() => onBlur(id, value)}
        />
        {label}
      </Flex>
    </Text>
  );
}
