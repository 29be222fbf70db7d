import { Badge, Button, Card, Flex, Heading, Table, Text, TextArea, VisuallyHidden } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { Link, useParams } from 'react-router-dom';
import { describeError, ErrorState, LoadingState, ScreenHeader, useDialogs, usePageTitle, useToasts, useTranslation } from '../../../engine/index.js';
import { formatScore } from '../../../shared/format.js';
import type { ExamModeration, ModerationEntry, ModerationGrade } from '../shared/results-contract.js';
import { moderationOptions, resultsApi, resultsChanged } from './queries.js';
import { resultsKeys } from './query-keys.js';

/** A score or mean in the reader's language (at most 2 decimals), a dash when there is none. */
const number = (value: number | null, language: string) => formatScore(value, language);

/** A failed write's text: its field errors by key in the user's language, else the error's code. */
function errorText(error: unknown, t: TFunction): string {
  const fields = (error as { errors?: Array<{ messageKey?: string; params?: Record<string, unknown> }> }).errors ?? [];
  const texts = fields.filter((e) => e.messageKey).map((e) => t(e.messageKey!, e.params ?? {}));
  return texts.length > 0 ? texts.join(' ') : describeError(error, t);
}

/** 'Reopen' for one submitted grade: a dialog that asks the reason (required), then judging's reopen. */
function ReopenButton({ data, entry, grade }: { data: ExamModeration; entry: ModerationEntry; grade: ModerationGrade }): ReactElement {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const toasts = useToasts();
  const client = useQueryClient();
  const open = () => {
    const choice = { reason: '' };
    return dialogs.confirm({
      title: t('results.moderation.reopenTitle', { juror: grade.juror, id: entry.contestId }),
      description: (
        <label>
          <Text as="div" size="2" mb="1">
            {t('results.moderation.reason')}
          </Text>
          <TextArea aria-label={t('results.moderation.reason')} minLength={3} maxLength={500} onChange={(e) => (choice.reason = e.target.value)} />
          <Text as="div" size="1" color="gray">
            {t('results.moderation.reopenHelp')}
          </Text>
        </label>
      ),
      confirmText: t('results.moderation.reopen'),
      onConfirm: async () => {
        try {
          await resultsApi.reopenGrade(grade.gradeId, choice.reason.trim());
        } catch (error) {
          toasts.error(errorText(error, t));
          throw error;
        }
        toasts.success(t('results.moderation.reopened', { juror: grade.juror }));
        void client.invalidateQueries({ queryKey: resultsKeys.moderation(data.exam.id) });
        resultsChanged(client);
        void client.invalidateQueries({ queryKey: resultsKeys.exam(data.exam.id) });
      },
    });
  };
  return (
    <Button size="1" variant="soft" onClick={() => void open()} aria-label={t('results.moderation.reopenLabel', { juror: grade.juror })}>
      {t('results.moderation.reopen')}
    </Button>
  );
}

/** One flagged entry: every juror's per-criterion scores, totals and remarks side by side. */
function ModerationCard({ data, entry }: { data: ExamModeration; entry: ModerationEntry }): ReactElement {
  const { t, i18n } = useTranslation();
  const title = entry.code
    ? t('results.moderation.entryCode', { code: entry.code, id: entry.contestId })
    : t('results.moderation.entry', { id: entry.contestId });
  const canReopen = data.exam.status === 'open' || data.exam.status === 'closed';
  return (
    <Card>
      <Flex direction="column" gap="2">
        <Flex gap="2" align="center" wrap="wrap">
          <Heading as="h2" size="3">
            {title}
          </Heading>
          {entry.flagged && <Badge color="orange">{t('results.moderation.flagged')}</Badge>}
          {entry.grades.some((g) => g.status === 'draft' && g.reopenReason) && <Badge color="amber">{t('results.moderation.reopenedBadge')}</Badge>}
        </Flex>
        {entry.campaign && (
          <Text size="2" color="gray">
            {entry.campaign}
          </Text>
        )}
        <Text size="2">
          {t('results.moderation.figures', {
            rank: entry.rank ?? t('results.notRanked'),
            score: number(entry.score, i18n.language),
            mean: number(entry.mean, i18n.language),
            spread: number(entry.spread, i18n.language),
          })}
        </Text>
        <Table.Root variant="surface" size="1">
          <VisuallyHidden asChild>
            <caption>{title}</caption>
          </VisuallyHidden>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('results.columns.juror')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('results.columns.status')}</Table.ColumnHeaderCell>
              {data.criteria.map((c) => (
                <Table.ColumnHeaderCell key={c.key}>{`${c.label} (/${c.maximum})`}</Table.ColumnHeaderCell>
              ))}
              <Table.ColumnHeaderCell>{t('results.columns.total')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('results.columns.normalised')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('results.columns.remarks')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('results.columns.actions')}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {entry.grades.map((g) => (
              <Table.Row key={g.gradeId}>
                <Table.RowHeaderCell>{g.juror}</Table.RowHeaderCell>
                <Table.Cell>
                  <Badge color={g.status === 'draft' ? 'amber' : 'green'}>{t(`results.moderation.statuses.${g.status}`)}</Badge>
                  {g.raw && (
                    <Text as="div" size="1" color="gray">
                      {t(`results.rawNote.${g.raw}`, { name: g.juror })}
                    </Text>
                  )}
                </Table.Cell>
                {data.criteria.map((c) => (
                  <Table.Cell key={c.key}>
                    {g.scores[c.key] === undefined ? t('results.moderation.noScore') : number(g.scores[c.key]!, i18n.language)}
                  </Table.Cell>
                ))}
                <Table.Cell>{number(g.total, i18n.language)}</Table.Cell>
                <Table.Cell>{number(g.normalised, i18n.language)}</Table.Cell>
                <Table.Cell style={{ maxWidth: '20rem', whiteSpace: 'pre-wrap' }}>
                  {g.remarks ?? ''}
                  {g.reopenReason && (
                    <Text as="div" size="1" color="amber">
                      {t('results.gradeScores.reopenReason', { reason: g.reopenReason })}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell>{canReopen && g.status === 'submitted' ? <ReopenButton data={data} entry={entry} grade={g} /> : null}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Flex>
    </Card>
  );
}

/** `/manage-exam/:id/moderation`: an exam's flagged entries with every juror's scores and remarks, and 'Reopen' per grade (with a reason). */
export default function ModerationScreen(): ReactElement {
  const { t, i18n } = useTranslation();
  const examId = Number(useParams().id);
  const query = useQuery(moderationOptions(examId));
  const data = query.data;
  usePageTitle('results.moderation.title');
  if (query.isError)
    return (
      <ErrorState message={t('results.loadError', { message: describeError(query.error, t) })} back={{ to: '/manage-exam', label: t('nav.examinations') }} />
    );
  if (!data) return <LoadingState />;
  const trail = [
    { label: t('nav.examinations'), url: '/manage-exam' },
    { label: data.exam.name, url: `/manage-exam/${examId}` },
    { label: t('results.title'), url: `/manage-exam/${examId}/results` },
    { label: t('results.moderation.title') },
  ];
  return (
    <>
      <ScreenHeader
        trail={trail}
        heading={t('results.moderation.titleOf', { name: data.exam.name })}
        subheading={t('results.moderation.intro', { threshold: number(data.moderationThreshold, i18n.language) })}
        actions={
          <Button asChild variant="soft">
            <Link to={`/manage-exam/${examId}/results`}>{t('results.open')}</Link>
          </Button>
        }
      />
      <Flex direction="column" gap="4">
        {!data.codes && (
          <Text size="2" color="gray">
            {t('results.moderation.noCodes')}
          </Text>
        )}
        {data.entries.length === 0 ? (
          <Text>{t('results.moderation.empty')}</Text>
        ) : (
          data.entries.map((e) => <ModerationCard key={e.contestId} data={data} entry={e} />)
        )}
      </Flex>
    </>
  );
}
