import { ExclamationTriangleIcon, InfoCircledIcon } from '@radix-ui/react-icons';
import { Button, Callout, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import type { ReactElement, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from '../i18n/use-translation.js';

/** A centred spinner with 'Loading...' for a screen or card that is waiting for data. */
export function LoadingState({ label }: { label?: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <Flex role="status" align="center" justify="center" gap="3" py="9">
      <Spinner size="3" />
      <Text color="gray">{label ?? t('common.loading')}</Text>
    </Flex>
  );
}

/**
 * The red inline error box, optionally with a heading above the message ('Error loading
 * records') and a way back.
 */
export function ErrorState(props: { message: ReactNode; title?: ReactNode; back?: { to: string; label: string } }): ReactElement {
  return (
    <Flex direction="column" gap="3" align="start">
      <Callout.Root color="red" role="alert" style={{ width: '100%' }}>
        <Callout.Icon>
          <ExclamationTriangleIcon />
        </Callout.Icon>
        {props.title ? (
          <Flex direction="column" gap="1" asChild>
            <div>
              <Heading as="h2" size="3" weight="medium" color="red">
                {props.title}
              </Heading>
              <Callout.Text>{props.message}</Callout.Text>
            </div>
          </Flex>
        ) : (
          <Callout.Text>{props.message}</Callout.Text>
        )}
      </Callout.Root>
      {props.back && (
        <Button asChild variant="soft" color="gray">
          <RouterLink to={props.back.to}>{props.back.label}</RouterLink>
        </Button>
      )}
    </Flex>
  );
}

/** A neutral notice (empty list, not found), optionally with a way back. */
export function NoticeState(props: { message: ReactNode; back?: { to: string; label: string } }): ReactElement {
  return (
    <Flex direction="column" align="center" justify="center" gap="3" py="8" px="4">
      <InfoCircledIcon width={28} height={28} color="var(--gray-8)" aria-hidden />
      <Text color="gray" align="center">
        {props.message}
      </Text>
      {props.back && (
        <Button asChild variant="soft" color="gray">
          <RouterLink to={props.back.to}>{props.back.label}</RouterLink>
        </Button>
      )}
    </Flex>
  );
}
