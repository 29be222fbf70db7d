import { Flex, Text } from '@radix-ui/themes';
import { errorId, type FieldErrorProps } from '@rjsf/utils';
import type { ReactElement } from 'react';

/** A field's errors under it, in red, announced politely and referenced by the widget's `aria-describedby`. */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps): ReactElement | null {
  const messages = errors.filter((error) => Boolean(error));
  if (messages.length === 0) return null;
  return (
    <Flex asChild direction="column" gap="0" m="0" p="0" style={{ listStyle: 'none' }}>
      <ul id={errorId(fieldPathId)} aria-live="polite">
        {messages.map((message, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: RJSF gives the messages without ids (text that may repeat); the list is redrawn whole on each validation
          <li key={index}>
            <Text size="1" color="red" className="rjsf-field-error">
              {message}
            </Text>
          </li>
        ))}
      </ul>
    </Flex>
  );
}
