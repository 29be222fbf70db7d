import { Button, Flex, Text, TextArea } from '@radix-ui/themes';
import { type ReactElement, useState } from 'react';
import { describeError, useTranslation } from '../../../engine/index.js';
import { judgingApi } from './queries.js';

/**
 * The body of the 'I know this entry' dialog: a required reason, then
 * `POST /api/assignments/{id}/conflict` (the juror declares a conflict with the entry and is recused
 * from it). Stays open with the reason asked for, or the server's message, until it succeeds.
 */
export function DeclareConflictForm(props: { assignmentId: number; close: (done?: boolean) => void }): ReactElement {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (reason.trim() === '') {
      setProblem(t('judging.portal.conflict_reason_required'));
      return;
    }
    setBusy(true);
    try {
      await judgingApi.declareConflict(props.assignmentId, reason.trim());
      props.close(true);
    } catch (error) {
      setProblem(describeError(error, t));
      setBusy(false);
    }
  };
  return (
    <Flex direction="column" gap="3">
      <Text size="2">{t('judging.portal.conflict_explain')}</Text>
      <label>
        <Text as="div" size="2" weight="medium" mb="1">
          {t('judging.portal.conflict_reason')}
        </Text>
        <TextArea
          aria-label={t('judging.portal.conflict_reason')}
          aria-required
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'conflict-reason-error' : undefined}
          autoFocus
          maxLength={500}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setProblem(null);
          }}
        />
      </label>
      {problem && (
        <Text id="conflict-reason-error" size="1" color="red" role="alert">
          {problem}
        </Text>
      )}
      <Flex gap="2" justify="end">
        <Button type="button" variant="soft" color="gray" onClick={() => props.close(false)} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button type="button" color="red" onClick={() => void send()} disabled={busy} aria-busy={busy || undefined}>
          {t('judging.portal.conflict_confirm')}
        </Button>
      </Flex>
    </Flex>
  );
}
