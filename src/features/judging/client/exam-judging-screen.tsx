import { Badge, Button, Card, Checkbox, Flex, Heading, Link, Table, Text, TextField, VisuallyHidden } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { describeError, ErrorState, LoadingState, NoticeState, useDialogs, usePageTitle, useToasts, useTranslation } from '../../../engine/index.js';
import { formatNumber } from '../../../shared/format.js';
import { EXAM_MOVES, type ExamStatus } from '../shared/exam-status.js';
import { PanelEditor } from './panel-editor.js';
import { PlanPreview } from './plan-preview.js';
import { categoryProgressOptions, examProgressOptions, examsOptions, invalidateJudging, judgingApi, type Matrix, matrixOptions, type Plan } from './queries.js';

const ACTION_KEY: Record<string, string> = { open: 'open', closed: 'close', final: 'finalise' };
const STATUS_COLORS: Record<string, 'amber' | 'green' | 'gray' | 'blue'> = { draft: 'amber', open: 'green', closed: 'gray', final: 'blue' };

/** Every exam, each linking to its judging screen (`/exam-judging`). */
function ExamPicker() {
  const { t } = useTranslation();
  const query = useQuery(examsOptions());
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState message={t('judging.screen.load_error', { message: describeError(query.error, t) })} />;
  return (
    <Flex direction="column" gap="2">
      <Heading as="h1" size="6">
        {t('judging.actions.judging')}
      </Heading>
      <CategoryProgress />
      {query.data.map((exam) => (
        <Link key={exam.id} asChild>
          <RouterLink to={`/exam-judging/${exam.id}`}>
            {exam.name} <Badge color={STATUS_COLORS[exam.status]}>{t(`entities.exam.statuses.${exam.status}`)}</Badge>
          </RouterLink>
        </Link>
      ))}
    </Flex>
  );
}

/**
 * Grading progress per category and round over every exam: graded (submitted) out of assigned
 * (recusals left out), the exam's own category first.
 */
function CategoryProgress({ categoryId }: { categoryId?: number }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(categoryProgressOptions());
  const rows = [...(query.data ?? [])].sort((a, b) => Number(b.category_id === categoryId) - Number(a.category_id === categoryId));
  const headingId = 'judging-per-category';
  return (
    <Card asChild>
      <section aria-labelledby={headingId}>
        <Heading as="h2" size="4" mb="2" id={headingId}>
          {t('judging.screen.per_category')}
        </Heading>
        {query.isError ? (
          <Text color="red">{t('judging.screen.load_error', { message: describeError(query.error, t) })}</Text>
        ) : rows.length === 0 ? (
          <Text size="2" color="gray">
            {query.isPending ? t('judging.screen.loading') : t('judging.screen.no_assignments')}
          </Text>
        ) : (
          <Table.Root size="1">
            <VisuallyHidden asChild>
              <caption>{t('judging.screen.per_category')}</caption>
            </VisuallyHidden>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>{t('judging.screen.category')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('judging.screen.round')}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{t('judging.screen.graded_assigned')}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((c) => (
                <Table.Row key={`${c.category_id}-${c.round}`}>
                  <Table.RowHeaderCell>{c.name}</Table.RowHeaderCell>
                  <Table.Cell>{t(`entities.jury.rounds.${c.round}`)}</Table.Cell>
                  <Table.Cell>{`${formatNumber(c.submitted, i18n.language)} / ${formatNumber(c.total - c.recused, i18n.language)}`}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </section>
    </Card>
  );
}

/**
 * An exam's judging screen for admins: the status moves (each with a confirm),
 * auto-assign with a preview, the assignment matrix (entries × jurors, counts per row and column,
 * conflicts disabled), progress per juror and per category and round, and reminders.
 */
export function ExamJudgingScreen() {
  const { id } = useParams();
  if (!id) return <ExamPicker />;
  return <ExamJudging examId={Number(id)} />;
}

function ExamJudging({ examId }: { examId: number }) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  const [perEntry, setPerEntry] = useState('3');
  const [plan, setPlan] = useState<Plan | null>(null);
  const [message, setMessage] = useState('');
  const toasts = useToasts();
  const matrix = useQuery(matrixOptions(examId));
  const progress = useQuery(examProgressOptions(examId));
  usePageTitle('judging.screen.title', { name: matrix.data?.exam.name ?? '' });
  if (matrix.isPending) return <LoadingState />;
  if (matrix.isError) return <ErrorState message={t('judging.screen.load_error', { message: describeError(matrix.error, t) })} />;
  const m = matrix.data;
  const refresh = () => invalidateJudging(queryClient);
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setMessage(done);
      await refresh();
    } catch (error) {
      setMessage(describeError(error, t));
    }
  };
  const move = (to: ExamStatus) =>
    dialogs.confirm({
      title: t('judging.actions.confirm_status_title'),
      description: t('judging.actions.confirm_status', {
        name: m.exam.name,
        from: t(`entities.exam.statuses.${m.exam.status}`),
        to: t(`entities.exam.statuses.${to}`),
      }),
      onConfirm: () => run(() => judgingApi.moveExam(examId, to), t('judging.actions.status_changed')),
    });
  const autoAssign = (dryRun: boolean) =>
    run(
      async () => {
        const planned = await judgingApi.autoAssign(examId, Number(perEntry) || 3, dryRun);
        setPlan(dryRun ? planned : null);
      },
      dryRun ? '' : t('judging.screen.saved'),
    );
  const byPair = new Map(m.assignments.filter((a) => a.status !== 'recused').map((a) => [`${a.contest_id}:${a.jury_id}`, a]));
  const conflicts = new Map(m.conflict_rules.map((c) => [`${c.contest_id}:${c.jury_id}`, c.rules]));
  const sourceText = (e: Matrix['entries'][number]) =>
    e.source?.kind === 'shortlisted' ? t('judging.entries.shortlisted', { exam: e.source.exam_id ?? '' }) : t('judging.entries.approved');
  const toggle = (entry: number, juror: { id: number; name: string }) => {
    const existing = byPair.get(`${entry}:${juror.id}`);
    return run(() => (existing ? judgingApi.unassign(examId, existing.id) : judgingApi.assign(examId, entry, juror.id)), '');
  };
  const totals = progress.data?.exams[0];

  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center" wrap="wrap" gap="2">
        <Heading as="h1" size="6">
          {t('judging.screen.title', { name: m.exam.name })}
        </Heading>
        <Flex gap="2" align="center">
          {/* Results' screens for this exam (results' own routes and texts). */}
          <RouterLink to={`/manage-exam/${examId}/results`}>{t('results.open')}</RouterLink>
          <RouterLink to={`/manage-exam/${examId}/moderation`}>{t('results.moderation.open')}</RouterLink>
          <Badge size="2" color={STATUS_COLORS[m.exam.status]}>
            {t(`entities.exam.statuses.${m.exam.status}`)}
          </Badge>
          {EXAM_MOVES[m.exam.status].map((to) => (
            <Button key={to} variant="soft" onClick={() => void move(to)}>
              {t(`judging.actions.${m.exam.status === 'closed' && to === 'open' ? 'reopen' : ACTION_KEY[to]}`)}
            </Button>
          ))}
        </Flex>
      </Flex>
      <Text role="status" color="gray">
        {message}
      </Text>
      <Card>
        <Flex gap="2" align="end" wrap="wrap">
          <label>
            <Text as="div" size="2">
              {t('judging.screen.per_entry')}
            </Text>
            <TextField.Root type="number" min={1} max={20} value={perEntry} onChange={(e) => setPerEntry(e.target.value)} style={{ width: 90 }} />
          </label>
          <Button variant="soft" onClick={() => void autoAssign(true)}>
            {t('judging.screen.preview')}
          </Button>
          {plan && <Button onClick={() => void autoAssign(false)}>{t('judging.screen.save_plan')}</Button>}
        </Flex>
        {plan && <PlanPreview plan={plan} matrix={m} />}
      </Card>
      <PanelEditor examId={examId} categoryId={m.exam.category_id} locked={m.exam.status === 'final'} />
      <Card>
        <Flex justify="between" align="center" mb="2" wrap="wrap" gap="2">
          <Heading as="h2" size="4">
            {t('judging.screen.progress')}
          </Heading>
          <Button
            variant="soft"
            onClick={() =>
              void judgingApi.remind(examId).then(
                (answer) => {
                  const text =
                    answer.sent === 0 && answer.failed === 0
                      ? t('judging.reminders.none')
                      : t('judging.reminders.sent', { count: answer.sent, entries: answer.entries });
                  const extra = [
                    answer.failed > 0 ? t('judging.reminders.failed', { count: answer.failed }) : '',
                    answer.transport === 'log' ? t('judging.reminders.logged') : '',
                  ];
                  toasts.success([text, ...extra].filter(Boolean).join(' '));
                },
                (error) => toasts.error(describeError(error, t)),
              )
            }
          >
            {t('judging.screen.reminders')}
          </Button>
        </Flex>
        {totals && (
          <Text size="2">
            {(['assigned', 'in_progress', 'submitted', 'recused'] as const).map((s) => `${t(`entities.assignment.statuses.${s}`)}: ${totals[s]}`).join(' · ')}
          </Text>
        )}
        <Table.Root size="1" mt="2">
          <VisuallyHidden asChild>
            <caption>{t('judging.screen.progress')}</caption>
          </VisuallyHidden>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('judging.screen.per_juror')}</Table.ColumnHeaderCell>
              {(['assigned', 'in_progress', 'submitted', 'recused'] as const).map((s) => (
                <Table.ColumnHeaderCell key={s}>{t(`entities.assignment.statuses.${s}`)}</Table.ColumnHeaderCell>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(progress.data?.jurors ?? []).map((j) => (
              <Table.Row key={j.jury_id}>
                <Table.RowHeaderCell>
                  <RouterLink to={`/jury?jury_id=${j.jury_id}`}>{j.name}</RouterLink>
                </Table.RowHeaderCell>
                <Table.Cell>{j.assigned}</Table.Cell>
                <Table.Cell>{j.in_progress}</Table.Cell>
                <Table.Cell>{j.submitted}</Table.Cell>
                <Table.Cell>{j.recused}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Card>
      <CategoryProgress categoryId={m.exam.category_id} />
      <Card style={{ overflowX: 'auto' }}>
        <Heading as="h2" size="4" mb="2">
          {t('judging.screen.matrix')}
        </Heading>
        {m.entries.length === 0 ? (
          <NoticeState message={t('judging.screen.empty')} />
        ) : (
          <Table.Root size="1">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>{t('judging.screen.entries')}</Table.ColumnHeaderCell>
                {m.jurors.map((j) => (
                  <Table.ColumnHeaderCell key={j.id} title={t('judging.panel.edition_load_of', { count: j.edition_load })}>
                    {j.name} ({j.count}){!j.on_panel && ` · ${t('judging.panel.off_panel')}`}
                  </Table.ColumnHeaderCell>
                ))}
                <Table.ColumnHeaderCell>{t('judging.screen.count')}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {m.entries.map((e) => (
                <Table.Row key={e.id}>
                  <Table.RowHeaderCell style={{ minWidth: 240 }}>
                    <Flex gap="1" align="center" wrap="wrap">
                      <Text>#{e.id}</Text>
                      {e.code && <code>{e.code}</code>}
                      <Badge color={e.eligible ? 'green' : 'red'}>{t(`entities.contest.enum.status.${e.status}`, { defaultValue: e.status })}</Badge>
                      <Text size="1" color="gray">
                        {e.eligible ? sourceText(e) : t('judging.rules.not_eligible')}
                      </Text>
                      <Text size="1" color="gray">
                        {[e.company, e.brand].filter(Boolean).join(' · ')}
                      </Text>
                    </Flex>
                  </Table.RowHeaderCell>
                  {m.jurors.map((j) => {
                    const pair = `${e.id}:${j.id}`;
                    const conflicted = conflicts.has(pair);
                    const label = t(byPair.has(pair) ? 'judging.screen.unassign' : 'judging.screen.assign', { juror: j.name, entry: e.id });
                    const why = (conflicts.get(pair) ?? []).map((rule) => t(`judging.rules.${rule}`)).join(' ');
                    return (
                      <Table.Cell key={j.id} title={conflicted ? why : undefined}>
                        <Checkbox
                          aria-label={conflicted ? `${label} (${t('judging.screen.conflict')})` : label}
                          checked={byPair.has(pair)}
                          disabled={conflicted && !byPair.has(pair)}
                          onCheckedChange={() => void toggle(e.id, j)}
                        />
                      </Table.Cell>
                    );
                  })}
                  <Table.Cell>{e.count}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Card>
    </Flex>
  );
}

export default ExamJudgingScreen;
