import { Flex, Switch, Text } from '@radix-ui/themes';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { useTranslation } from '../../i18n/use-translation.js';

/**
 * The values an on/off switch stores for a field: `true`/`false` for a boolean, else the first two
 * enum values that mean on and off (`active`/`inactive`).
 */
export function switchValues(schema: WidgetProps['schema']): { on: unknown; off: unknown } {
  const values = Array.isArray(schema.enum) ? schema.enum : [];
  if (schema.type === 'boolean' || values.length === 0) return { on: true, off: false };
  const on = values.find((value) => value === 'active' || value === true || value === 1) ?? values[0];
  const off = values.find((value) => value !== on) ?? values[1];
  return { on, off };
}

function SwitchControl(props: WidgetProps & { onText: string; offText: string }): ReactElement {
  const { id, value, disabled, readonly, onChange, onBlur, schema, onText, offText, rawErrors } = props;
  const { on, off } = switchValues(schema);
  const checked = value === on;
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <Flex gap="2" align="center">
      <Switch
        id={id}
        checked={checked}
        disabled={disabled || readonly}
        aria-invalid={invalid || undefined}
        aria-describedby={`${ariaDescribedByIds(id)} ${id}__state`}
        onCheckedChange={(next) => onChange(next ? on : off)}
        onBlur={() => onBlur(id, value)}
      />
      <Text id={`${id}__state`} size="2" color={checked ? 'green' : 'gray'}>
        {checked ? onText : offText}
      </Text>
    </Flex>
  );
}

/** An on/off switch for a boolean (or a two-value enum), showing On/Off beside it. */
export function SwitchWidget(props: WidgetProps): ReactElement {
  const { t } = useTranslation();
  return <SwitchControl {...props} onText={t('common.switch.on')} offText={t('common.switch.off')} />;
}

/**
 * The spec's 'Active Status' switch: on means active. Stores `active`/`inactive` for a status enum
 * and `true`/`false` for an `is_active` boolean; shows Active/Inactive beside it.
 */
export function ActiveSwitchWidget(props: WidgetProps): ReactElement {
  const { t } = useTranslation();
  return <SwitchControl {...props} onText={t('common.status.active')} offText={t('common.status.inactive')} />;
}
