import { Button, Card, Checkbox, Flex, Select, Text, TextField } from '@radix-ui/themes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactElement, useState } from 'react';
import { describeError, saveFile, useDialogs, useToasts, useTranslation } from '../../../engine/index.js';
import type { ExamResultsData, ShortlistResult } from '../shared/results-contract.js';
import { type ExportOptions, resultsApi, resultsChanged } from './queries.js';

/** Finalise, or reopen with a reason: the header's actions. */
export function ResultsActions({ data }: { data: ExamResultsData }): ReactElement {
  const { t } = useTranslation();
  const toasts = useToasts();
  const dialogs = useDialogs();
  const client = useQueryClient();
  const [reason, setReason] = useState<string | null>(null);
  const examId = data.exam.id;
  const done = (message: string) => (result: ExamResultsData) => {
    resultsChanged(client, result);
    toasts.success(message);
  };
  const failed = (error: unknown) => toasts.error(describeError(error, t));
  const finalise = useMutation({ mutationFn: () => resultsApi.finalise(examId), onSuccess: done(t('results.toasts.finalised')), onError: failed });
  const reopen = useMutation({
    mutationFn: (text: string) => resultsApi.reopen(examId, text),
    onSuccess: (result) => {
      setReason(null);
      done(t('results.toasts.reopened'))(result);
    },
    onError: failed,
  });

  if (!data.finalised) {
    return (
      <Button
        onClick={async () => {
          if (await dialogs.confirm({ title: t('results.actions.finalise'), description: t('results.confirmFinalise', { name: data.exam.name }) }))
            finalise.mutate();
        }}
        disabled={finalise.isPending}
      >
        {t('results.actions.finalise')}
      </Button>
    );
  }
  if (reason === null) {
    return (
      <Button variant="soft" onClick={() => setReason('')}>
        {t('results.actions.reopen')}
      </Button>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        reopen.mutate(reason);
      }}
    >
      <Flex gap="2" align="end">
        <label>
          <Text as="div" size="2">
            {t('results.reason')}
          </Text>
          <TextField.Root value={reason} onChange={(e) => setReason(e.target.value)} minLength={3} maxLength={500} required aria-describedby="reopen-help" />
          <Text id="reopen-help" size="1" color="gray">
            {t('results.reasonHelp')}
          </Text>
        </label>
        <Button type="submit" disabled={reopen.isPending}>
          {t('results.actions.reopen')}
        </Button>
      </Flex>
    </form>
  );
}

/**
 * What a shortlist moved (or, previewed, would move), exactly: how many entries into which exam and
 * which, which were already there, which were taken out and which are kept because graded in Round 2.
 */
export function shortlistMessage(result: ShortlistResult, t: TFunction): string {
  const ids = (list: number[]) => list.map((id) => `#${id}`).join(', ');
  const exam = result.targetExamName ?? t('results.shortlist.newExam');
  const parts = [
    result.dryRun ? t('results.shortlist.preview') : '',
    result.added.length
      ? t('results.shortlist.added', { count: result.added.length, exam, ids: ids(result.added) })
      : t('results.shortlist.addedNone', { exam }),
    result.unchanged.length ? t('results.shortlist.already', { count: result.unchanged.length, ids: ids(result.unchanged) }) : '',
    result.removed.length ? t('results.shortlist.removed', { count: result.removed.length, ids: ids(result.removed) }) : '',
    result.keptGraded.length ? t('results.shortlist.kept', { count: result.keptGraded.length, ids: ids(result.keptGraded) }) : '',
    result.createdExam ? (result.dryRun ? t('results.shortlist.willCreate') : t('results.shortlist.created', { exam })) : '',
  ];
  return parts.filter(Boolean).join(' ');
}

async function download(examId: number, options: ExportOptions) {
  saveFile(await resultsApi.exportFile(examId, options), `results-exam-${examId}.${options.format}`);
}

/** Shortlist to Round 2 (Round 1 exams) and the export: the tools under the header. */
export function ResultsTools({ data }: { data: ExamResultsData }): ReactElement {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const client = useQueryClient();
  const [top, setTop] = useState('5');
  const [preview, setPreview] = useState<ShortlistResult | null>(null);
  const [format, setFormat] = useState('csv');
  const [perJuror, setPerJuror] = useState(false);
  const [anonymise, setAnonymise] = useState(false);
  const examId = data.exam.id;
  const shortlist = useMutation({
    mutationFn: (dryRun: boolean) => resultsApi.shortlist(examId, Number(top), dryRun),
    onSuccess: (result) => {
      setPreview(result);
      if (!result.dryRun) {
        toasts.success(shortlistMessage(result, t));
        resultsChanged(client);
      }
    },
    onError: (error) => toasts.error(describeError(error, t)),
  });
  return (
    <Card>
      <Flex gap="5" wrap="wrap" align="end">
        {data.exam.round === 1 && (
          <Flex direction="column" gap="2">
            <Flex gap="2" align="end">
              <label>
                <Text as="div" size="2">
                  {t('results.shortlist.top')}
                </Text>
                <TextField.Root type="number" min={1} max={1000} value={top} onChange={(e) => setTop(e.target.value)} style={{ width: '6rem' }} />
              </label>
              <Button variant="soft" onClick={() => shortlist.mutate(true)} disabled={shortlist.isPending}>
                {t('results.actions.preview')}
              </Button>
              <Button onClick={() => shortlist.mutate(false)} disabled={shortlist.isPending}>
                {t('results.actions.shortlist')}
              </Button>
            </Flex>
            {preview && (
              <Text size="2" role="status" style={{ maxWidth: '40rem' }}>
                {shortlistMessage(preview, t)}
              </Text>
            )}
          </Flex>
        )}
        <Flex gap="3" align="end" wrap="wrap">
          <label>
            <Text as="div" size="2">
              {t('results.export.format')}
            </Text>
            <Select.Root value={format} onValueChange={setFormat}>
              <Select.Trigger aria-label={t('results.export.format')} />
              <Select.Content>
                <Select.Item value="csv">CSV</Select.Item>
                <Select.Item value="xlsx">XLSX</Select.Item>
              </Select.Content>
            </Select.Root>
          </label>
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Checkbox checked={perJuror} onCheckedChange={(v) => setPerJuror(v === true)} />
              {t('results.export.perJuror')}
            </Flex>
          </Text>
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Checkbox checked={anonymise} onCheckedChange={(v) => setAnonymise(v === true)} />
              {t('results.export.anonymise')}
            </Flex>
          </Text>
          <Button
            variant="soft"
            onClick={() =>
              download(examId, { format, per: perJuror ? 'juror' : 'entry', anonymise, lang: i18n.language.slice(0, 2) }).catch((error) =>
                toasts.error(describeError(error, t)),
              )
            }
          >
            {t('results.actions.export')}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
