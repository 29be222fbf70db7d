import { Flex, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/** A label, the control, an optional hint and the field's error (announced, tied by aria-describedby). */
export function FormField({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <Flex direction="column" gap="1" data-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      {children}
      {hint && !error && (
        <Text size="1" color="gray">
          {hint}
        </Text>
      )}
      {error && (
        <Text id={`${id}-error`} size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Flex>
  );
}
