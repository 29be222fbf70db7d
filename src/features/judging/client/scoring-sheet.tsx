import { Badge, Button, Card, Flex, Heading, Text, TextArea, TextField } from '@radix-ui/themes';
import { useEffect, useRef, useState } from 'react';
import { describeError, useDialogs, useTranslation } from '../../../engine/index.js';
import { formatInputNumber, formatScore } from '../../../shared/format.js';
import type { JuryAssignment, JuryExam } from '../shared/jury-types.js';
import { readScore, type ScoreInput, validScores } from '../shared/score-input.js';
import { weightedTotal } from '../shared/weighted-total.js';
import { DeclareConflictForm } from './declare-conflict.js';
import { judgingApi } from './queries.js';

const AUTOSAVE_MS = 700;

/**
 * The scoring sheet of one assignment: a score field per criterion (0 to its maximum) with the
 * criterion's guidance under it, remarks, the running total (an invalid score is shown invalid and
 * never counted), a draft autosaved to the server (so it survives a reload), submit with a confirm
 * (disabled, with the reason, until every criterion has a valid score), 'I know this entry' (a
 * declared conflict, with a reason) and recusal with a reason. Read-only when the grade is submitted,
 * the exam is not open, or an admin views the portal. `entryName` names the entry by its blind code.
 */
export function ScoringSheet(props: {
  exam: JuryExam;
  assignment: JuryAssignment;
  entryName: string;
  readOnly: boolean;
  onChanged: () => void;
  /** After a submit (the portal moves on to the next entry needing work). */
  onSubmitted?: () => void;
}) {
  const { exam, assignment, entryName, onChanged } = props;
  const { t, i18n } = useTranslation();
  const dialogs = useDialogs();
  const initial = assignment.grade?.scores ?? {};
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(exam.criteria.map((c) => [c.key, initial[c.key] === undefined ? '' : formatInputNumber(initial[c.key]!, i18n.language)])),
  );
  const [remarks, setRemarks] = useState(assignment.grade?.remarks ?? '');
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' | 'error'; message?: string }>({ kind: 'idle' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const dirty = useRef(false);
  const locked = props.readOnly || exam.status !== 'open' || assignment.status === 'submitted' || assignment.status === 'recused';

  const inputs: Record<string, ScoreInput> = Object.fromEntries(exam.criteria.map((c) => [c.key, readScore(values[c.key] ?? '', c.maximum)]));
  const scores = () => validScores(inputs);
  const invalid = exam.criteria.filter((c) => inputs[c.key]?.state === 'invalid');
  const missing = exam.criteria.filter((c) => inputs[c.key]?.state === 'empty');
  const blocked =
    invalid.length > 0
      ? t('judging.portal.submit_blocked_invalid', { count: invalid.length, labels: invalid.map((c) => c.label).join(', ') })
      : missing.length > 0
        ? t('judging.portal.submit_blocked_missing', { count: missing.length })
        : null;
  const save = async (submit: boolean) => {
    setState({ kind: 'saving' });
    try {
      await judgingApi.saveGrade(assignment.id, { scores: scores(), remarks: remarks || null, submit });
      dirty.current = false;
      setErrors({});
      setState({ kind: 'saved' });
      return true;
    } catch (error) {
      const fieldErrors: Record<string, string> = {};
      for (const e of (error as { errors?: Array<{ path: string; messageKey: string; params: Record<string, unknown> }> }).errors ?? []) {
        fieldErrors[e.path.replace(/^scores\./, '')] = t(e.messageKey, e.params);
      }
      setErrors(fieldErrors);
      setState({ kind: 'error', message: describeError(error, t) });
      return false;
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: autosaves after an edit of the scores or remarks (the triggers); save is made again on each render and `locked` is read when the edit happens
  useEffect(() => {
    if (locked || !dirty.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(false), AUTOSAVE_MS);
    return () => clearTimeout(timer.current);
  }, [values, remarks]);

  const change = (update: () => void) => {
    dirty.current = true;
    update();
  };
  const submit = async () => {
    clearTimeout(timer.current);
    const ok = await dialogs.confirm({
      title: t('judging.portal.submit_title'),
      description: t('judging.portal.submit_confirm_entry', { entry: entryName }),
      onConfirm: async () => {
        if (!(await save(true))) throw new Error('not submitted');
      },
    });
    if (ok) {
      onChanged();
      props.onSubmitted?.();
    }
  };
  const declareConflict = async () => {
    clearTimeout(timer.current);
    const done = await dialogs.custom({
      title: t('judging.portal.conflict_title', { entry: entryName }),
      content: (close) => <DeclareConflictForm assignmentId={assignment.id} close={close} />,
    });
    if (done === true) onChanged();
  };
  const recuse = async () => {
    let reason = '';
    const ok = await dialogs.confirm({
      title: t('judging.portal.recuse_title_entry', { entry: entryName }),
      description: (
        <label>
          <Text as="div" size="2" mb="1">
            {t('judging.portal.recuse_reason')}
          </Text>
          <TextArea aria-label={t('judging.portal.recuse_reason')} autoFocus maxLength={500} onChange={(e) => (reason = e.target.value)} />
        </label>
      ),
      onConfirm: () => judgingApi.recuse(assignment.id, reason),
    });
    if (ok) onChanged();
  };

  const total = weightedTotal(exam.criteria, scores(), exam.max_score);
  return (
    <Card size="2" aria-labelledby="scoring-sheet-heading">
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" wrap="wrap" gap="2">
          <Heading as="h2" size="4" id="scoring-sheet-heading">
            {t('judging.portal.sheet')}
          </Heading>
          <Badge color={assignment.status === 'submitted' ? 'green' : assignment.status === 'recused' ? 'red' : 'amber'}>
            {t(`judging.portal.statuses.${assignment.status}`)}
          </Badge>
        </Flex>
        {exam.status !== 'open' && (
          <Text color="gray" size="2">
            {t('judging.portal.closed')}
          </Text>
        )}
        {assignment.status === 'recused' && (
          <Text color="red" size="2">
            {t('judging.portal.recused')}
          </Text>
        )}
        {!locked && (
          <Flex gap="2" align="center" wrap="wrap">
            <Text size="1" color="gray">
              {t('judging.portal.conflict_prompt')}
            </Text>
            <Button size="1" variant="soft" color="gray" onClick={() => void declareConflict()}>
              {t('judging.portal.conflict')}
            </Button>
          </Flex>
        )}
        {exam.criteria.map((c) => {
          const input = inputs[c.key];
          const problem = input?.state === 'invalid' ? t(input.messageKey, input.params) : errors[c.key];
          const described = [c.guidance ? `guidance-${c.key}` : '', problem ? `problem-${c.key}` : ''].join(' ').trim();
          return (
            <label key={c.key}>
              <Flex justify="between" gap="2">
                <Text size="2" weight="medium">
                  {c.label}
                </Text>
                <Text size="1" color="gray">
                  {t('judging.portal.out_of', { max: c.maximum })}
                </Text>
              </Flex>
              {c.guidance && (
                <Text as="p" id={`guidance-${c.key}`} size="1" color="gray" mb="1" style={{ whiteSpace: 'pre-wrap' }}>
                  {c.guidance}
                </Text>
              )}
              <TextField.Root
                type="text"
                inputMode="decimal"
                autoComplete="off"
                name={`score-${c.key}`}
                aria-label={`${c.label} (${t('judging.portal.out_of', { max: c.maximum })})`}
                aria-invalid={problem ? true : undefined}
                aria-describedby={described || undefined}
                color={problem ? 'red' : undefined}
                disabled={locked}
                value={values[c.key] ?? ''}
                onChange={(e) => change(() => setValues((v) => ({ ...v, [c.key]: e.target.value })))}
              />
              {problem && (
                <Text id={`problem-${c.key}`} size="1" color="red" role="alert">
                  {problem}
                </Text>
              )}
            </label>
          );
        })}
        <label>
          <Text as="div" size="2" weight="medium">
            {t('judging.portal.remarks')}
          </Text>
          <TextArea name="remarks" maxLength={2000} disabled={locked} value={remarks} onChange={(e) => change(() => setRemarks(e.target.value))} />
        </label>
        <Text weight="bold" aria-live="polite">
          {t('judging.portal.total', { total: formatScore(total, i18n.language), max: formatScore(exam.max_score, i18n.language) })}
        </Text>
        {invalid.length > 0 && (
          <Text size="1" color="red">
            {t('judging.portal.total_excludes', { count: invalid.length })}
          </Text>
        )}
        <Text size="1" color={state.kind === 'error' ? 'red' : 'gray'} role="status">
          {state.kind === 'saving'
            ? t('judging.portal.saving')
            : state.kind === 'saved'
              ? t('judging.portal.saved')
              : state.kind === 'error'
                ? t('judging.portal.save_failed', { message: state.message })
                : ''}
        </Text>
        {!locked && (
          <Flex gap="2" wrap="wrap">
            <Button onClick={() => void submit()} disabled={blocked !== null} aria-describedby={blocked ? 'submit-blocked' : undefined}>
              {t('judging.portal.submit')}
            </Button>
            <Button variant="soft" color="red" onClick={() => void recuse()}>
              {t('judging.portal.recuse')}
            </Button>
          </Flex>
        )}
        {!locked && blocked && (
          <Text id="submit-blocked" size="1" color="gray">
            {blocked}
          </Text>
        )}
      </Flex>
    </Card>
  );
}
