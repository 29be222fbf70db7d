import { Badge, Button, Flex, Select, Table, Text, TextField, VisuallyHidden } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useState } from 'react';
import { type CellProps, describeError, formatDateTime, useDialogs, useToasts, useTranslation } from '../../../engine/index.js';
import type { JuryConflict, JuryConflictInput } from '../shared/season-types.js';
import { invalidateJudging } from './query-keys.js';
import { conflictsOptions, seasonApi } from './season-queries.js';

type Kind = JuryConflict['kind'];
const KINDS: Kind[] = ['company', 'entry', 'brand'];

/**
 * `juror-conflicts`: on a juror's detail page (the cell of its id), the juror's declared conflicts of
 * interest (with a company, an entry or a brand; by an admin or by the juror in the portal) and a
 * form to declare one or withdraw one. Every way of assigning the juror honours them.
 */
export function JurorConflictsCell({ record, place }: CellProps): ReactElement {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const dialogs = useDialogs();
  const client = useQueryClient();
  const juryId = Number(record.id);
  const conflicts = useQuery({ ...conflictsOptions(juryId), enabled: juryId > 0 && place !== 'list' });
  const [kind, setKind] = useState<Kind>('company');
  const [target, setTarget] = useState('');
  const [reason, setReason] = useState('');
  const declare = useMutation({
    mutationFn: (input: JuryConflictInput) => seasonApi.declare(juryId, input),
    onSuccess: () => {
      setTarget('');
      setReason('');
      toasts.success(t('judging.conflicts.declared'));
      void invalidateJudging(client);
    },
    onError: (error) => toasts.error(describeError(error, t)),
  });
  const withdraw = (conflict: JuryConflict) =>
    dialogs.confirm({
      title: t('judging.conflicts.withdraw_title'),
      description: t('judging.conflicts.withdraw_confirm', { target: targetOf(conflict) }),
      onConfirm: async () => {
        try {
          await seasonApi.withdraw(juryId, conflict.id);
          toasts.success(t('judging.conflicts.withdrawn'));
          await invalidateJudging(client);
        } catch (error) {
          toasts.error(describeError(error, t));
        }
      },
    });
  const targetOf = (c: JuryConflict) => (c.kind === 'entry' ? t('judging.conflicts.entry_target', { id: c.contest_id }) : (c.name ?? ''));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: JuryConflictInput = kind === 'entry' ? { kind, contest_id: Number(target) || undefined, reason } : { kind, name: target, reason };
    declare.mutate(input);
  };
  if (place === 'list') return <Text />;
  const language = i18n.resolvedLanguage ?? 'en';
  return (
    <Flex direction="column" gap="3" data-testid="juror-conflicts">
      {conflicts.isPending ? (
        <Text color="gray">{t('judging.screen.loading')}</Text>
      ) : conflicts.isError ? (
        <Text color="red">{describeError(conflicts.error, t)}</Text>
      ) : conflicts.data.length === 0 ? (
        <Text color="gray">{t('judging.conflicts.none')}</Text>
      ) : (
        <Table.Root size="1" variant="surface">
          <VisuallyHidden asChild>
            <caption>{t('judging.conflicts.title')}</caption>
          </VisuallyHidden>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('judging.conflicts.kind')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('judging.conflicts.target')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('judging.conflicts.reason')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('judging.conflicts.declared_by')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <VisuallyHidden>{t('judging.conflicts.withdraw')}</VisuallyHidden>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {conflicts.data.map((c) => (
              <Table.Row key={c.id}>
                <Table.Cell>
                  <Badge>{t(`judging.conflicts.kinds.${c.kind}`)}</Badge>
                </Table.Cell>
                <Table.RowHeaderCell>{targetOf(c)}</Table.RowHeaderCell>
                <Table.Cell>{c.reason}</Table.Cell>
                <Table.Cell>
                  {t(`judging.conflicts.by.${c.declared_by}`)}{' '}
                  <Text size="1" color="gray">
                    {formatDateTime(c.created_at, language)}
                  </Text>
                </Table.Cell>
                <Table.Cell>
                  <Button size="1" variant="soft" color="red" onClick={() => void withdraw(c)}>
                    {t('judging.conflicts.withdraw_one', { target: targetOf(c) })}
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <form onSubmit={submit} aria-label={t('judging.conflicts.declare')}>
        <Flex gap="2" align="end" wrap="wrap">
          <label>
            <Text as="div" size="2">
              {t('judging.conflicts.kind')}
            </Text>
            <Select.Root value={kind} onValueChange={(value) => setKind(value as Kind)}>
              <Select.Trigger aria-label={t('judging.conflicts.kind')} />
              <Select.Content>
                {KINDS.map((k) => (
                  <Select.Item key={k} value={k}>
                    {t(`judging.conflicts.kinds.${k}`)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </label>
          <label>
            <Text as="div" size="2">
              {kind === 'entry' ? t('judging.conflicts.entry_id') : t('judging.conflicts.name')}
            </Text>
            <TextField.Root
              type={kind === 'entry' ? 'number' : 'text'}
              min={kind === 'entry' ? 1 : undefined}
              maxLength={kind === 'entry' ? undefined : 200}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              required
            />
          </label>
          <label style={{ flex: 1, minWidth: 200 }}>
            <Text as="div" size="2">
              {t('judging.conflicts.reason')}
            </Text>
            <TextField.Root value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} required />
          </label>
          <Button type="submit" disabled={declare.isPending}>
            {t('judging.conflicts.declare')}
          </Button>
        </Flex>
      </form>
    </Flex>
  );
}
