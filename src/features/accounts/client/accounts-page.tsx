import { Badge, Button, Callout, Card, Flex, Heading, Select, Spinner, Table, Text, TextField } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, Fragment, useState } from 'react';
import {
  ApiError,
  describeError,
  FormField,
  fieldMessages,
  formatDateTime,
  SearchableSelect,
  useDialogs,
  usePageTitle,
  useSession,
  useToasts,
  useTranslation,
} from '../../../engine/index.js';
import { type AccountAction, accountsApi, accountsOptions, type InviteRole, invalidateAccounts, linkCandidatesOptions, signInsOptions } from './queries.js';

const STATUS_COLOR = { active: 'green', invited: 'amber', disabled: 'gray' } as const;

/** The message of a refused account action: its translated key when it has one. */
function actionError(error: unknown, t: (key: string) => string): string {
  const key = error instanceof ApiError ? error.errors?.[0]?.messageKey : undefined;
  return key ? t(key) : describeError(error, t) || t('pages.accounts.actionFailed');
}

/** Inviting an account: name, e-mail and role; the server mails the set-password link. */
function InviteForm({ onInvited }: { onInvited(): void }) {
  const { t } = useTranslation();
  const toast = useToasts();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InviteRole>('juror');
  const [juryId, setJuryId] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const candidates = useQuery({ ...linkCandidatesOptions('juror'), enabled: role === 'juror' });
  const invite = useMutation({
    mutationFn: () => accountsApi.invite({ name: name.trim(), email: email.trim(), role, ...(role === 'juror' ? { jury_id: juryId } : {}) }),
    onSuccess: (account) => {
      toast.success(t('pages.accounts.invited', { email: account.email }));
      setName('');
      setEmail('');
      setJuryId(null);
      setErrors({});
      onInvited();
    },
    onError: (error) => {
      const fields = fieldMessages(error, t);
      setErrors(fields);
      if (Object.keys(fields).length === 0) toast.error(actionError(error, t));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <Card size="3" asChild>
      <form onSubmit={submit} noValidate aria-labelledby="invite-heading">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4" id="invite-heading">
            {t('pages.accounts.inviteHeading')}
          </Heading>
          <Flex gap="3" wrap="wrap" align="end">
            <FormField id="invite-name" label={t('pages.accounts.name')} error={errors.name}>
              <TextField.Root id="invite-name" name="name" value={name} onChange={(e) => setName(e.target.value)} />
            </FormField>
            <FormField id="invite-email" label={t('pages.accounts.email')} error={errors.email}>
              <TextField.Root id="invite-email" name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </FormField>
            <FormField id="invite-role" label={t('pages.accounts.role')} error={errors.role}>
              <Select.Root value={role} onValueChange={(value) => setRole(value as InviteRole)}>
                <Select.Trigger id="invite-role" aria-label={t('pages.accounts.role')} />
                <Select.Content>
                  <Select.Item value="juror">{t('pages.accounts.roles.juror')}</Select.Item>
                  <Select.Item value="admin">{t('pages.accounts.roles.admin')}</Select.Item>
                </Select.Content>
              </Select.Root>
            </FormField>
            {role === 'juror' && (
              <FormField id="invite-jury" label={t('accounts.invite.juror')} error={errors.jury_id}>
                <SearchableSelect
                  id="invite-jury"
                  label={t('accounts.invite.juror')}
                  value={juryId}
                  onChange={(value) => setJuryId(value === undefined ? null : Number(value))}
                  options={(candidates.data ?? []).map((c) => ({ value: c.id, label: c.name, description: c.email ?? undefined }))}
                  loading={candidates.isPending}
                  placeholder={t('accounts.invite.byEmail')}
                  invalid={Boolean(errors.jury_id)}
                  clearable
                />
              </FormField>
            )}
            <Button type="submit" disabled={invite.isPending}>
              {t('pages.accounts.invite')}
            </Button>
          </Flex>
          {role === 'juror' && (
            <Text size="1" color="gray">
              {t('accounts.invite.linkHelp')}
            </Text>
          )}
        </Flex>
      </form>
    </Card>
  );
}

/** One account's sign-ins: when, from where, which browser, how the session ended. */
function SignInHistory({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const history = useQuery(signInsOptions(id));
  if (history.isPending) return <Spinner />;
  if (history.isError) return <Text color="red">{describeError(history.error, t)}</Text>;
  if (history.data.length === 0) return <Text color="gray">{t('pages.accounts.noSignIns')}</Text>;
  return (
    <Table.Root size="1" aria-label={t('pages.accounts.history')}>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>{t('pages.accounts.signedInAt')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('pages.accounts.address')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('pages.accounts.browser')}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{t('pages.accounts.ended')}</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {history.data.map((record) => (
          <Table.Row key={record.started_at}>
            <Table.Cell>{formatDateTime(record.started_at, language)}</Table.Cell>
            <Table.Cell>{record.ip ?? '-'}</Table.Cell>
            <Table.Cell>
              <Text truncate style={{ maxWidth: 320, display: 'inline-block' }}>
                {record.user_agent ?? '-'}
              </Text>
            </Table.Cell>
            <Table.Cell>
              {t(`pages.accounts.endings.${record.ended}`, { defaultValue: record.ended })}
              {record.ended_at ? ` · ${formatDateTime(record.ended_at, language)}` : ''}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/** `/manage-account`: every admin and juror account, inviting, resending, disabling and enabling, and sign-in history. */
export function AccountsPage() {
  const { t, i18n } = useTranslation();
  const toast = useToasts();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const language = i18n.resolvedLanguage ?? 'en';
  usePageTitle('pages.titles.accounts');
  const [open, setOpen] = useState<number | null>(null);
  const accounts = useQuery(accountsOptions());
  const refresh = () => void invalidateAccounts(queryClient);
  const dialogs = useDialogs();
  const act = useMutation({
    mutationFn: ({ id, action }: { id: number; action: AccountAction }) => accountsApi.act(id, action),
    onSuccess: (_answer, { action }) => {
      toast.success(t(`pages.accounts.done.${action === 'reset-two-factor' ? 'resetTwoFactor' : action}`));
      refresh();
    },
    onError: (error) => toast.error(actionError(error, t)),
  });
  const resetTwoFactor = async (id: number, email: string) => {
    await dialogs.confirm({
      id: `reset-two-factor-${id}`,
      title: t('pages.accounts.resetTwoFactorTitle'),
      confirmText: t('pages.accounts.resetTwoFactor'),
      description: t('pages.accounts.resetTwoFactorConfirm', { email }),
      size: 'sm',
      onConfirm: async () => {
        await act.mutateAsync({ id, action: 'reset-two-factor' }).catch(() => undefined);
      },
    });
  };

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1" size="6">
        {t('pages.titles.accounts')}
      </Heading>
      <InviteForm onInvited={refresh} />
      {accounts.isPending && (
        <Flex align="center" gap="2" role="status">
          <Spinner /> {t('common.loading')}
        </Flex>
      )}
      {accounts.isError && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{describeError(accounts.error, t)}</Callout.Text>
        </Callout.Root>
      )}
      {accounts.data && (
        <Card size="2">
          <Table.Root aria-label={t('pages.titles.accounts')}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>{t('pages.accounts.name')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('pages.accounts.email')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('pages.accounts.role')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('pages.accounts.status')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('pages.accounts.lastSignIn')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('pages.accounts.twoFactor')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('common.actions')}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {accounts.data.map((account) => (
                <Fragment key={account.id}>
                  <Table.Row data-testid={`account-${account.email}`}>
                    <Table.RowHeaderCell>{account.name}</Table.RowHeaderCell>
                    <Table.Cell>{account.email}</Table.Cell>
                    <Table.Cell>{t(`pages.accounts.roles.${account.role}`)}</Table.Cell>
                    <Table.Cell>
                      <Badge color={STATUS_COLOR[account.status]}>{t(`pages.accounts.statuses.${account.status}`)}</Badge>
                    </Table.Cell>
                    <Table.Cell>{formatDateTime(account.last_login_at, language) ?? t('pages.accounts.never')}</Table.Cell>
                    <Table.Cell>{account.two_factor ? t('pages.twoFactor.on') : t('pages.twoFactor.off')}</Table.Cell>
                    <Table.Cell>
                      <Flex gap="2" wrap="wrap">
                        {account.status === 'invited' && (
                          <Button size="1" variant="soft" onClick={() => act.mutate({ id: account.id, action: 'resend' })}>
                            {t('pages.accounts.resend')}
                          </Button>
                        )}
                        {account.status === 'disabled' ? (
                          <Button size="1" variant="soft" onClick={() => act.mutate({ id: account.id, action: 'enable' })}>
                            {t('pages.accounts.enable')}
                          </Button>
                        ) : (
                          String(account.id) !== user?.id && (
                            <Button size="1" variant="soft" color="red" onClick={() => act.mutate({ id: account.id, action: 'disable' })}>
                              {t('pages.accounts.disable')}
                            </Button>
                          )
                        )}
                        {account.two_factor && String(account.id) !== user?.id && (
                          <Button size="1" variant="soft" color="amber" onClick={() => void resetTwoFactor(account.id, account.email)}>
                            {t('pages.accounts.resetTwoFactor')}
                          </Button>
                        )}
                        <Button size="1" variant="ghost" aria-expanded={open === account.id} onClick={() => setOpen(open === account.id ? null : account.id)}>
                          {t('pages.accounts.history')}
                        </Button>
                      </Flex>
                    </Table.Cell>
                  </Table.Row>
                  {open === account.id && (
                    <Table.Row>
                      <Table.Cell colSpan={7}>
                        <SignInHistory id={account.id} />
                      </Table.Cell>
                    </Table.Row>
                  )}
                </Fragment>
              ))}
            </Table.Body>
          </Table.Root>
        </Card>
      )}
    </Flex>
  );
}

export { AccountsPage as Component };
export default AccountsPage;
