import { Badge, Button, Dialog, Flex, Text, TextArea } from '@radix-ui/themes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useState } from 'react';
import { ApiError, type CellProps, describeError, http, queryKeys, useToasts, useTranslation } from '../../../engine/index.js';
import { type ContestReview, type ContestReviewInput, isReviewable, REVIEW_REASON_MAX } from '../shared/contest-review.js';
import { invalidateJudging } from './query-keys.js';

const COLORS: Record<string, 'yellow' | 'blue' | 'green' | 'red'> = { pending: 'yellow', submitted: 'blue', approved: 'green', rejected: 'red' };

/** The reason field's problem of a refused review (422), translated; null for any other error. */
function reasonError(error: unknown, t: (key: string, params?: Record<string, unknown>) => string): string | null {
  const item = error instanceof ApiError ? error.errors?.find((e) => e.path === 'reason' || e.path === '/reason') : undefined;
  return item?.messageKey ? t(item.messageKey, item.params ?? {}) : null;
}

/**
 * `contest-review`: on an entry's detail page (the cell of its status), the review: the status and,
 * while the entry is pending or submitted, "Approve" (it joins its category's Round 1) and "Reject"
 * (a dialog asking for the required reason). Refreshes the record and judging's figures.
 */
export function ContestReviewCell({ record, place }: CellProps): ReactElement {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useQueryClient();
  const id = Number(record.id);
  const status = String(record.status ?? '');
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const review = useMutation({
    mutationFn: (input: ContestReviewInput) => http.post<{ data: ContestReview }>(`/contests/${id}/review`, input).then((answer) => answer.data),
    onSuccess: async (_data, input) => {
      setOpen(false);
      setReason('');
      toasts.success(t(input.decision === 'approve' ? 'judging.review.approved' : 'judging.review.rejected'));
      await Promise.all([client.invalidateQueries({ queryKey: queryKeys.entity('contest') }), invalidateJudging(client)]);
    },
    onError: (error) => {
      if (!reasonError(error, t)) toasts.error(describeError(error, t));
    },
  });
  if (place === 'list') return <Text />;
  const badge = (
    <Badge color={COLORS[status] ?? 'gray'} data-testid="contest-review-status">
      {t(`entities.contest.enum.status.${status}`, { defaultValue: t('common.status.unknown') })}
    </Badge>
  );
  if (!isReviewable(status)) {
    return (
      <Flex direction="column" gap="2" align="start" data-testid="contest-review">
        {badge}
        <Text size="2" color="gray">
          {t('judging.review.done')}
        </Text>
      </Flex>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    review.mutate({ decision: 'reject', reason });
  };
  const fieldError = review.isError ? reasonError(review.error, t) : null;
  return (
    <Flex direction="column" gap="2" align="start" data-testid="contest-review">
      {badge}
      <Text size="2" color="gray">
        {t('judging.review.hint')}
      </Text>
      <Flex gap="2">
        <Button color="green" disabled={review.isPending} onClick={() => review.mutate({ decision: 'approve' })}>
          {t('judging.review.approve')}
        </Button>
        <Dialog.Root
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            if (!next) review.reset();
          }}
        >
          <Dialog.Trigger>
            <Button color="red" variant="soft" disabled={review.isPending}>
              {t('judging.review.reject')}
            </Button>
          </Dialog.Trigger>
          <Dialog.Content maxWidth="480px">
            <Dialog.Title>{t('judging.review.reject_title', { id })}</Dialog.Title>
            <Dialog.Description size="2" mb="3">
              {t('judging.review.reject_description')}
            </Dialog.Description>
            <form onSubmit={submit}>
              <label>
                <Text as="div" size="2" mb="1" weight="medium">
                  {t('judging.review.reason')}
                </Text>
                <TextArea
                  value={reason}
                  maxLength={REVIEW_REASON_MAX}
                  required
                  aria-invalid={fieldError ? true : undefined}
                  onChange={(e) => setReason(e.target.value)}
                />
              </label>
              {fieldError ? (
                <Text as="p" size="2" color="red" role="alert">
                  {fieldError}
                </Text>
              ) : null}
              <Flex gap="2" mt="4" justify="end">
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">
                    {t('judging.review.cancel')}
                  </Button>
                </Dialog.Close>
                <Button type="submit" color="red" disabled={review.isPending || !reason.trim()}>
                  {t('judging.review.reject_confirm')}
                </Button>
              </Flex>
            </form>
          </Dialog.Content>
        </Dialog.Root>
      </Flex>
    </Flex>
  );
}
