import { Box, Flex, Select, Text, TextField } from '@radix-ui/themes';
import { type ReactElement, useId } from 'react';
import type { ClientEntity, ListFilter } from '../../shared/descriptor/types.js';
import { enumLabel } from '../form/form-schema.js';
import { useTranslation } from '../i18n/use-translation.js';
import { registerExtension, registeredFilterInput } from '../registry/extension-registry.js';
import type { FilterInputComponent, FilterInputProps } from '../registry/extension-types.js';
import { filterParamName } from './list-params.js';
import { ReferenceFilter } from './reference-filter.js';
import { checkTypedId, MAX_TYPED_ID_LENGTH } from './typed-id.js';

/** The value Radix Select uses for 'any value' (an empty string is reserved by Radix). */
const ANY = '__any__';

/** The choices of a select filter: its `values` keys, else the field's enum (`[value, label]`). */
function choicesOf(entity: ClientEntity, filter: ListFilter, t: ReturnType<typeof useTranslation>['t']): Array<[string, string]> {
  const field = filter.field.includes('.') ? undefined : filter.field;
  if (filter.values) {
    return Object.keys(filter.values).map((value) => [value, field ? enumLabel(entity, field, value, t as never) : value]);
  }
  if (filter.input === 'boolean')
    return [
      ['true', t('common.yes')],
      ['false', t('common.no')],
    ];
  const values = field ? (entity.jsonSchema.properties?.[field]?.enum ?? []) : [];
  return values.filter((value) => value !== null).map((value) => [String(value), enumLabel(entity, field!, value, t as never)]);
}

/** The label of a filter's input in the reader's language. */
export function filterLabel(entity: ClientEntity, filter: ListFilter, t: ReturnType<typeof useTranslation>['t']): string {
  return t(filter.label ?? `entities.${entity.name}.filters.${filterParamName(filter.param)}`);
}

/** `text`, `number` and `date`: a text field of that type (numbers are whole and positive). */
function TextFilterInput({ filter, id, value, onChange }: FilterInputProps): ReactElement {
  const number = filter.input === 'number';
  return (
    <TextField.Root
      id={id}
      name={filter.param}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      type={number ? 'number' : filter.input === 'date' ? 'date' : 'text'}
      inputMode={number ? 'numeric' : undefined}
      min={number ? 1 : undefined}
      step={number ? 1 : undefined}
    />
  );
}

/** `select` and `boolean`: 'Any' and the filter's values (or the field's enum, or Yes / No). */
function ChoiceFilterInput({ entity, filter, id, label, value, onChange }: FilterInputProps): ReactElement {
  const { t } = useTranslation();
  return (
    <Select.Root value={value || ANY} onValueChange={(next) => onChange(next === ANY ? '' : next)}>
      <Select.Trigger id={id} aria-label={label} variant="surface" />
      <Select.Content position="popper">
        <Select.Item value={ANY}>{t('common.filters.any')}</Select.Item>
        {choicesOf(entity, filter, t).map(([choice, text]) => (
          <Select.Item key={choice} value={choice}>
            {text}
          </Select.Item>
        ))}
      </Select.Content>
    </Select.Root>
  );
}

/**
 * `reference`: the searchable select of the related records; with `typedId`, a number field,
 * labelled by the filter, for the record's ID, and beside it the searchable select that picks a
 * record by name and puts its ID in the field.
 */
function ReferenceFilterInput({ entity, filter, id, label, value, error, onChange }: FilterInputProps): ReactElement {
  const { t } = useTranslation();
  if (!filter.typedId) return <ReferenceFilter entity={entity} filter={filter} id={id} label={label} value={value} onChange={onChange} />;
  const errorId = `${id}-error`;
  const picked = checkTypedId(value);
  return (
    <Flex direction="column" gap="1">
      <Flex gap="2" align="center">
        <TextField.Root
          id={id}
          name={filter.param}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          inputMode="numeric"
          autoComplete="off"
          // Room to type past the limit, so a too-long ID is refused with its message, not cut short.
          maxLength={MAX_TYPED_ID_LENGTH * 4}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          color={error ? 'red' : undefined}
          style={{ width: '8rem' }}
        />
        <Box flexGrow="1" minWidth="0">
          <ReferenceFilter
            entity={entity}
            filter={filter}
            id={`${id}-pick`}
            label={t('common.filters.typedId.pick')}
            value={'value' in picked ? picked.value : ''}
            onChange={onChange}
          />
        </Box>
      </Flex>
      {error && (
        <Text id={errorId} size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Flex>
  );
}

/**
 * The filter inputs the engine ships, registered by name through `registerExtension` exactly as
 * an application registers its own; a filter's `input` picks one.
 */
export const filterInputs = {
  text: TextFilterInput,
  number: TextFilterInput,
  date: TextFilterInput,
  select: ChoiceFilterInput,
  boolean: ChoiceFilterInput,
  reference: ReferenceFilterInput,
} as const satisfies Record<string, FilterInputComponent>;

registerExtension({ filterInputs });

/** One filter of the panel: its label and its registered input (a text field when unknown). */
export function FilterField(props: Omit<FilterInputProps, 'id' | 'label'>): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const label = filterLabel(props.entity, props.filter, t);
  const Input = registeredFilterInput(props.filter.input) ?? TextFilterInput;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <Input {...props} id={id} label={label} />
    </Flex>
  );
}
