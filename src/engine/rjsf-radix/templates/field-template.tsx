import { Box, Flex, Text } from '@radix-ui/themes';
import { type FieldTemplateProps, getUiOptions } from '@rjsf/utils';
import type { ReactElement } from 'react';

/** The id of a field's visible label, for widgets that label themselves with `aria-labelledby`. */
export function labelId(id: string): string {
  return `${id}__label`;
}

/**
 * One field: its label (with a required mark), the widget, the description, help and the errors
 * under it. Hidden fields render only their widget.
 */
export function FieldTemplate(props: FieldTemplateProps): ReactElement {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, uiSchema, schema } = props;
  if (hidden) return <Box style={{ display: 'none' }}>{children}</Box>;
  // The root object has no label of its own.
  const isObject = schema.type === 'object';
  const showLabel = displayLabel && !isObject && getUiOptions(uiSchema).label !== false;
  return (
    <Flex direction="column" gap="1" className="rjsf-field" data-field={id}>
      {showLabel && (
        <Text as="label" htmlFor={id} id={labelId(id)} size="2" weight="medium">
          {label}
          {required && (
            <Text color="red" aria-hidden>
              {' *'}
            </Text>
          )}
        </Text>
      )}
      {showLabel && description}
      {children}
      {errors}
      {help}
    </Flex>
  );
}
