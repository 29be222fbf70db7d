import { Flex, Text, TextField } from '@radix-ui/themes';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { ReactElement } from 'react';
import { fromZonedInput, toZonedInput, userTimeZone, zoneLabel } from '../../widgets/zoned-time.js';

/**
 * RJSF widget `datetime` (also RJSF's `DateTimeWidget`, picked for `format: date-time`): a native
 * `datetime-local` input read and shown in the user's time zone, with the zone beside it
 * ('Asia/Jakarta, UTC+7'), storing an ISO UTC instant (`2026-12-01T03:00:00.000Z`), the value
 * `format: date-time` accepts (a bare `datetime-local` value has no zone and fails it). An empty or
 * incomplete input stores the field's empty value. `ui:options.timeZone` pins another zone.
 */
export function ZonedDateTimeWidget(props: WidgetProps): ReactElement {
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, rawErrors, required } = props;
  const zone = typeof options.timeZone === 'string' ? options.timeZone : userTimeZone();
  const invalid = (rawErrors?.length ?? 0) > 0;
  const parsed = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  const zoneText = zoneLabel(zone, Number.isNaN(parsed) ? Date.now() : parsed);
  const zoneId = `${id}__zone`;
  return (
    <Flex gap="2" align="center" wrap="wrap">
      <TextField.Root
        id={id}
        name={htmlName || id}
        type="datetime-local"
        value={toZonedInput(value, zone)}
        readOnly={readonly}
        disabled={disabled}
        autoFocus={autofocus}
        required={required}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        aria-describedby={`${ariaDescribedByIds(id)} ${zoneId}`}
        color={invalid ? 'red' : undefined}
        variant="surface"
        size="2"
        onChange={(event) => onChange(fromZonedInput(event.target.value, zone) ?? options.emptyValue)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <Text id={zoneId} size="1" color="gray" data-time-zone={zone}>
        {zoneText}
      </Text>
    </Flex>
  );
}
