import { Badge, Button, Callout, Card, Checkbox, Flex, Table, Text, TextField } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  describeError,
  ErrorState,
  findEntity,
  LoadingState,
  ScreenHeader,
  useMetaEntities,
  usePageTitle,
  useToasts,
  useTranslation,
} from '../../../engine/index.js';
import { accountRoles } from '../index.js';
import { portalError } from './portal-texts.js';
import { accountsApi, type BulkInviteResult, invalidateAccounts, recordStatesOptions } from './queries.js';

const STATE_COLOR = { none: 'gray', invited: 'amber', active: 'green', disabled: 'red' } as const;

/** The role link whose records this screen invites (the juror's `jury` record). */
const link = accountRoles.find((role) => role.link)!.link!;

/**
 * `/jury-portal-invites`: every juror with their portal account's state; choose jurors (those
 * without an account are offered first; `?select=<id>` chooses one, as the jurors list's row
 * action does) and invite them all at once. The answer says how many were invited and which were
 * skipped, and why.
 */
export default function PortalInvitesScreen(): ReactElement {
  const { t } = useTranslation();
  usePageTitle('accounts.portal.bulkTitle');
  const meta = useMetaEntities();
  const entity = findEntity(meta.data, link.entity);
  if (meta.isPending) return <LoadingState />;
  if (!entity) return <ErrorState message={describeError(meta.error, t) || t('errors.codes.forbidden')} />;
  return <PortalInvites endpoint={entity.endpoint} listPath={`/${entity.routes.list}`} />;
}

function PortalInvites({ endpoint, listPath }: { endpoint: string; listPath: string }): ReactElement {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const records = useQuery(recordStatesOptions(endpoint));
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set((params.get('select') ?? '').split(',').filter(Boolean).map(Number)));
  const [search, setSearch] = useState('');
  const [result, setResult] = useState<BulkInviteResult | null>(null);
  const shown = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase();
    return (records.data ?? []).filter((r) => !needle || `${r.name} ${r.email ?? ''}`.toLocaleLowerCase().includes(needle));
  }, [records.data, search]);
  const invite = useMutation({
    mutationFn: () => accountsApi.inviteRecords(endpoint, [...chosen]),
    onSuccess: (answer) => {
      setResult(answer);
      setChosen(new Set());
      toasts.success(t('accounts.portal.bulkDone', { count: answer.invited, skipped: answer.skipped.length }));
      void invalidateAccounts(client);
    },
    onError: (error) => toasts.error(portalError(error, t)),
  });
  const toggle = (id: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const withoutAccount = shown.filter((r) => r.state === 'none').map((r) => r.id);

  return (
    <Flex direction="column" gap="4">
      <ScreenHeader
        trail={[{ label: t('nav.juries'), url: listPath }, { label: t('accounts.portal.bulkTitle') }]}
        heading={t('accounts.portal.bulkTitle')}
        subheading={t('accounts.portal.bulkIntro')}
      />
      {result && (
        <Callout.Root color={result.skipped.length > 0 ? 'amber' : 'green'} role="status">
          <Callout.Text>{t('accounts.portal.bulkDone', { count: result.invited, skipped: result.skipped.length })}</Callout.Text>
          {result.skipped.length > 0 && (
            <ul aria-label={t('accounts.portal.skippedHeading')}>
              {result.skipped.map((s) => (
                <li key={s.id}>
                  {s.name ?? `#${s.id}`}: {t(`accounts.portal.skipped.${s.reason}`)}
                </li>
              ))}
            </ul>
          )}
        </Callout.Root>
      )}
      {records.isPending && <LoadingState />}
      {records.isError && <ErrorState message={describeError(records.error, t)} />}
      {records.data && (
        <Card size="2">
          <Flex direction="column" gap="3">
            <Flex gap="3" align="end" wrap="wrap">
              <TextField.Root
                aria-label={t('accounts.portal.search')}
                placeholder={t('accounts.portal.search')}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
              <Button variant="soft" onClick={() => setChosen(new Set(withoutAccount))} disabled={withoutAccount.length === 0}>
                {t('accounts.portal.chooseUninvited', { count: withoutAccount.length })}
              </Button>
              <Button onClick={() => invite.mutate()} disabled={chosen.size === 0 || invite.isPending}>
                {t('accounts.portal.inviteChosen', { count: chosen.size })}
              </Button>
            </Flex>
            <Table.Root size="1" aria-label={t('accounts.portal.bulkTitle')}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>
                    <Text className="rt-sr-only">{t('accounts.portal.choose')}</Text>
                  </Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>{t('pages.accounts.name')}</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>{t('pages.accounts.email')}</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>{t('accounts.portal.account')}</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {shown.map((r) => (
                  <Table.Row key={r.id} data-testid={`portal-record-${r.id}`}>
                    <Table.Cell>
                      <Checkbox checked={chosen.has(r.id)} onCheckedChange={() => toggle(r.id)} aria-label={t('accounts.portal.chooseOne', { name: r.name })} />
                    </Table.Cell>
                    <Table.RowHeaderCell>{r.name}</Table.RowHeaderCell>
                    <Table.Cell>{r.email ?? '-'}</Table.Cell>
                    <Table.Cell>
                      <Badge color={STATE_COLOR[r.state]}>{t(`accounts.portal.states.${r.state}`)}</Badge>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Flex>
        </Card>
      )}
    </Flex>
  );
}
