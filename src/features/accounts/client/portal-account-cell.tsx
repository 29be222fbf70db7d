import { Badge, Button, Flex, Spinner, Text } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { type CellProps, describeError, findEntity, formatDateTime, useMetaEntities, useToasts, useTranslation } from '../../../engine/index.js';
import { accountRoles } from '../index.js';
import { portalError } from './portal-texts.js';
import { accountsApi, invalidateAccounts, type RecordAccount, recordAccountOptions } from './queries.js';

const STATE_COLOR = { none: 'gray', invited: 'amber', active: 'green', disabled: 'red' } as const;

/** The role link this cell shows (the juror's `jury` record). */
const link = accountRoles.find((role) => role.link)!.link!;

/**
 * `portal-account`: on a linked record's detail page (a juror's), the record's portal account
 * (none, invited, active, disabled; when invited and when last signed in) and 'Invite to the jury
 * portal' (or 'Send the invitation again' while invited). The server links the account to the
 * record and mails the set-password link.
 */
export function PortalAccountCell({ record }: CellProps): ReactElement {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const client = useQueryClient();
  const meta = useMetaEntities();
  const endpoint = findEntity(meta.data, link.entity)?.endpoint;
  const id = Number(record.id);
  const account = useQuery({ ...recordAccountOptions(endpoint ?? '', id), enabled: Boolean(endpoint) && id > 0 });
  const invite = useMutation({
    mutationFn: () => accountsApi.inviteRecord(endpoint!, id),
    onSuccess: (answer) => {
      toasts.success(t(`accounts.portal.outcome.${answer.outcome}`, { email: answer.account.email ?? '' }));
      void invalidateAccounts(client);
    },
    onError: (error) => toasts.error(portalError(error, t)),
  });
  if (account.isPending) return <Spinner />;
  if (account.isError) return <Text color="red">{describeError(account.error, t)}</Text>;
  const state: RecordAccount = account.data;
  const language = i18n.resolvedLanguage ?? 'en';
  return (
    <Flex direction="column" gap="2" align="start" data-testid="portal-account">
      <Flex gap="2" align="center" wrap="wrap">
        <Badge color={STATE_COLOR[state.state]}>{t(`accounts.portal.states.${state.state}`)}</Badge>
        {state.email && <Text size="2">{state.email}</Text>}
        {state.state === 'invited' && state.invited_at && (
          <Text size="1" color="gray">
            {t('accounts.portal.invitedAt', { when: formatDateTime(state.invited_at, language) })}
          </Text>
        )}
        {state.state === 'active' && (
          <Text size="1" color="gray">
            {t('accounts.portal.lastSignIn', { when: formatDateTime(state.last_login_at, language) ?? t('accounts.portal.never') })}
          </Text>
        )}
      </Flex>
      {(state.state === 'none' || state.state === 'invited') && (
        <Button size="2" variant={state.state === 'none' ? 'solid' : 'soft'} disabled={invite.isPending} onClick={() => invite.mutate()}>
          {state.state === 'none' ? t('accounts.portal.invite') : t('accounts.portal.resend')}
        </Button>
      )}
    </Flex>
  );
}
