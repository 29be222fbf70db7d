import { Button, Callout, Card, Checkbox, Flex, Table, Text, TextArea } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  describeError,
  ErrorState,
  formatDateTime,
  http,
  LoadingState,
  NoticeState,
  ScreenHeader,
  useDialogs,
  usePageTitle,
  useToasts,
  useTranslation,
} from '../../../engine/index.js';
import { entrantsApi } from './queries.js';

const REASON_MAX = 500;

interface SubmittedRow {
  id: number;
  created_at: string;
  updated_at: string;
  category?: { id: number; name?: string | null } | null;
  customer?: { id: number; name?: string | null; email?: string | null; company?: string | null } | null;
}

const submittedKey = ['entrants', 'review', 'submitted'] as const;

/**
 * `/review-entries` (admins): the submitted entries of the current edition (drafts never appear),
 * chosen one by one or all at once, approved or rejected with one reason together
 * (`POST /api/contests/review`). The answer says how many were reviewed and which were skipped.
 */
export default function ReviewScreen(): ReactElement {
  const { t, i18n } = useTranslation();
  usePageTitle('entrants.review.title');
  const client = useQueryClient();
  const toasts = useToasts();
  const dialogs = useDialogs();
  const rows = useQuery({
    queryKey: submittedKey,
    queryFn: ({ signal }) =>
      http
        .get<{ data: SubmittedRow[] }>('/contests', { signal, query: { status: 'submitted', per_page: 100, include: 'category,customer' } })
        .then((answer) => answer.data),
  });
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState('');
  const review = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      entrantsApi.review({ ids: [...chosen], decision, ...(decision === 'reject' ? { reason: reason.trim() } : {}) }),
    onSuccess: async (answer) => {
      toasts.success(t('entrants.review.done', { count: answer.reviewed, skipped: answer.skipped.length }));
      setChosen(new Set());
      setReason('');
      await client.invalidateQueries({ queryKey: submittedKey });
      await client.invalidateQueries({ queryKey: ['entities'] });
    },
    onError: (error) => toasts.error(describeError(error, t)),
  });
  const header = (
    <ScreenHeader trail={[{ label: t('entrants.review.title') }]} heading={t('entrants.review.title')} subheading={t('entrants.review.subtitle')} />
  );
  if (rows.isPending)
    return (
      <>
        {header}
        <LoadingState />
      </>
    );
  if (rows.isError)
    return (
      <>
        {header}
        <ErrorState message={describeError(rows.error, t)} />
      </>
    );
  if (rows.data.length === 0)
    return (
      <>
        {header}
        <NoticeState message={t('entrants.review.empty')} />
      </>
    );
  const all = rows.data.length > 0 && rows.data.every((row) => chosen.has(row.id));
  const toggle = (id: number, on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const approve = () =>
    dialogs.confirm({
      title: t('entrants.review.approveTitle'),
      description: t('entrants.review.approveConfirm', { count: chosen.size }),
      confirmText: t('entrants.review.approve'),
      onConfirm: () => review.mutateAsync('approve'),
    });
  const reject = () => {
    if (!reason.trim()) {
      setReasonError(t('judging.review.reason_required'));
      return;
    }
    setReasonError('');
    return dialogs.confirm({
      title: t('entrants.review.rejectTitle'),
      description: t('entrants.review.rejectConfirm', { count: chosen.size }),
      confirmText: t('entrants.review.reject'),
      onConfirm: () => review.mutateAsync('reject'),
    });
  };
  return (
    <>
      {header}
      <Flex direction="column" gap="4">
        <Card>
          <Flex direction="column" gap="3">
            <Text as="label" htmlFor="review-reason" size="2" weight="medium">
              {t('entrants.review.reason')}
            </Text>
            <TextArea
              id="review-reason"
              value={reason}
              maxLength={REASON_MAX}
              onChange={(event) => setReason(event.target.value)}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? 'review-reason-error' : undefined}
            />
            {reasonError && (
              <Text id="review-reason-error" size="1" color="red" role="alert">
                {reasonError}
              </Text>
            )}
            <Flex gap="3" align="center" wrap="wrap">
              <Text size="2" color="gray">
                {t('entrants.review.chosen', { count: chosen.size })}
              </Text>
              <Button color="green" disabled={chosen.size === 0 || review.isPending} onClick={() => void approve()}>
                {t('entrants.review.approve')}
              </Button>
              <Button color="red" variant="soft" disabled={chosen.size === 0 || review.isPending} onClick={() => void reject()}>
                {t('entrants.review.reject')}
              </Button>
            </Flex>
          </Flex>
        </Card>
        {review.isError && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{describeError(review.error, t)}</Callout.Text>
          </Callout.Root>
        )}
        <Card>
          <Table.Root aria-label={t('entrants.review.title')}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>
                  <Checkbox
                    checked={all}
                    aria-label={t('entrants.review.chooseAll')}
                    onCheckedChange={(on) => setChosen(on === true ? new Set(rows.data.map((row) => row.id)) : new Set())}
                  />
                </Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('entrants.list.entry')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('entrants.list.category')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('entrants.review.submittor')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('entrants.list.updated')}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.data.map((row) => (
                <Table.Row key={row.id} data-testid="review-row">
                  <Table.Cell>
                    <Checkbox
                      checked={chosen.has(row.id)}
                      aria-label={t('entrants.review.choose', { id: row.id })}
                      onCheckedChange={(on) => toggle(row.id, on === true)}
                    />
                  </Table.Cell>
                  <Table.RowHeaderCell>
                    <Link to={`/manage-contest/${row.id}`}>{t('entrants.entry.name', { id: row.id })}</Link>
                  </Table.RowHeaderCell>
                  <Table.Cell>{row.category?.name ?? '—'}</Table.Cell>
                  <Table.Cell>{[row.customer?.name || row.customer?.email, row.customer?.company].filter(Boolean).join(' · ') || '—'}</Table.Cell>
                  <Table.Cell>{formatDateTime(row.updated_at, i18n.language)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Card>
      </Flex>
    </>
  );
}
