import { Badge, Box, Button, Card, Flex, Grid, Heading, Link, Progress, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { describeError, ErrorState, LoadingState, NoticeState, safeHttpUrl, usePageTitle, useTranslation } from '../../../engine/index.js';
import { MediaView } from '../../media/client.js';
import type { JuryAssignment } from '../shared/jury-types.js';
import { Deadline } from './deadline.js';
import { invalidateJuryWork, juryWorkOptions } from './queries.js';
import { ScoringSheet } from './scoring-sheet.js';

const TEXT_FIELDS = ['strategy', 'insight', 'creative_idea', 'connection_plan', 'objective_based_kpi'] as const;
/** The entry fields shown by their own parts; any other field the server sends (a question the entry descriptor adds for jurors) shows as text. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([...TEXT_FIELDS, 'logo_url', 'campaign_kv_url', 'video_link']);

/** An assignment's statuses that still need the juror's work. */
const NEEDS_WORK: ReadonlySet<string> = new Set(['assigned', 'in_progress']);

/**
 * The entry after `currentId` (in the list's order, wrapping round) that still needs work, or
 * undefined when none does.
 */
export function nextNeedingWork(list: readonly JuryAssignment[], currentId: number): JuryAssignment | undefined {
  const at = list.findIndex((a) => a.id === currentId);
  const ordered = [...list.slice(at + 1), ...list.slice(0, Math.max(at, 0))];
  return ordered.find((a) => a.id !== currentId && NEEDS_WORK.has(a.status));
}

/** The entry's blind content: texts, key visual, logo and video link. */
function EntryContent({ assignment, name }: { assignment: JuryAssignment; name: string }) {
  const { t } = useTranslation();
  const e = assignment.entry;
  const video = safeHttpUrl(e.video_link);
  return (
    <Card size="2">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          {name}
        </Heading>
        {/* Pictures come from the console itself (media); an external URL shows as a link, never loaded. */}
        {e.campaign_kv_url ? <MediaView value={e.campaign_kv_url} size="large" alt={t('judging.portal.fields.campaign_kv_url')} /> : null}
        {e.logo_url ? <MediaView value={e.logo_url} size="detail" alt={t('judging.portal.fields.logo_url')} /> : null}
        {TEXT_FIELDS.filter((f) => e[f]).map((f) => (
          <Box key={f}>
            <Text as="div" size="2" weight="bold">
              {t(`judging.portal.fields.${f}`)}
            </Text>
            <Text as="p" size="2" style={{ whiteSpace: 'pre-wrap' }}>
              {String(e[f])}
            </Text>
          </Box>
        ))}
        {Object.keys(e)
          .filter((f) => !KNOWN_FIELDS.has(f) && e[f])
          .map((f) => (
            <Box key={f} data-field={f}>
              <Text as="div" size="2" weight="bold">
                {t(`entities.contest.fields.${f}`, { defaultValue: f.replace(/_/g, ' ') })}
              </Text>
              <Text as="p" size="2" style={{ whiteSpace: 'pre-wrap' }}>
                {String(e[f])}
              </Text>
            </Box>
          ))}
        {video && (
          <Link href={video} target="_blank" rel="noopener noreferrer">
            {t('judging.portal.fields.video_link')}
          </Link>
        )}
      </Flex>
    </Card>
  );
}

/**
 * The jury portal (`/jury`): the juror's exams with progress, the entries to score and
 * the scoring sheet beside the chosen entry's content, nothing identifying the entrant. An admin
 * opens it with `?jury_id=` to see any juror's portal read-only. The chosen entry is in the URL, so a
 * reload comes back to the same sheet with its autosaved draft. See docs/architecture.md, "Blind judging".
 */
export function JuryPortalScreen() {
  const { t } = useTranslation();
  usePageTitle('pages.titles.jury');
  const [params, setParams] = useSearchParams();
  const juryId = params.get('jury_id');
  const queryClient = useQueryClient();
  const query = useQuery(juryWorkOptions(juryId));
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState message={t('judging.portal.load_error', { message: describeError(query.error, t) })} />;
  const work = query.data;
  const selectedId = Number(params.get('assignment'));
  const selected = work.assignments.find((a) => a.id === selectedId);
  // The exam whose entries are listed: the chosen one, else the selected entry's, else the first open one.
  const examId = Number(params.get('exam')) || selected?.exam_id || (work.exams.find((e) => e.status === 'open') ?? work.exams[0])?.id;
  const listed = work.assignments.filter((a) => a.exam_id === examId);
  const chooseExam = (id: number) => setParams(new URLSearchParams({ ...(juryId ? { jury_id: juryId } : {}), exam: String(id) }));
  const examOf = (a: JuryAssignment) => work.exams.find((e) => e.id === a.exam_id)!;
  // An entry is named by its blind code (never the contest's id); without one, by its place in the list.
  const entryName = (a: JuryAssignment) => {
    const code = a.code;
    const place = work.assignments.filter((b) => b.exam_id === a.exam_id).findIndex((b) => b.id === a.id) + 1;
    return code ? t('judging.portal.entry_code', { code }) : t('judging.portal.entry_number', { n: place });
  };
  const listedExam = work.exams.find((e) => e.id === examId);
  const done = listedExam ? listedExam.progress.submitted + listedExam.progress.recused : 0;
  const choose = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('assignment', String(id));
    setParams(next);
  };

  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center" wrap="wrap" gap="2">
        <Heading as="h1" size="6">
          {t('pages.titles.jury')}
        </Heading>
        <Text color="gray">
          {work.read_only ? t('judging.portal.view_as', { name: work.juror.name }) : t('judging.portal.welcome', { name: work.juror.name })}
        </Text>
      </Flex>
      {work.assignments.length === 0 && <NoticeState message={t('judging.portal.empty')} />}
      <Grid columns={{ initial: '1', sm: '2', md: '3' }} gap="3">
        {work.exams.map((exam) => (
          <Card key={exam.id} asChild variant={exam.id === examId ? 'classic' : 'surface'}>
            <button type="button" aria-pressed={exam.id === examId} onClick={() => chooseExam(exam.id)} style={{ textAlign: 'start', cursor: 'pointer' }}>
              <Flex direction="column" gap="2">
                <Text weight="bold">{exam.name}</Text>
                <Progress
                  value={exam.progress.total ? (100 * (exam.progress.submitted + exam.progress.recused)) / exam.progress.total : 0}
                  aria-label={exam.name}
                />
                <Text size="2" color="gray">
                  {t('judging.portal.progress', { submitted: exam.progress.submitted, total: exam.progress.total })}
                </Text>
                <Deadline opensAt={exam.opens_at ?? null} closesAt={exam.closes_at ?? null} />
              </Flex>
            </button>
          </Card>
        ))}
      </Grid>
      <Grid columns={{ initial: '1', sm: '220px 1fr' }} gap="4" align="start">
        <nav aria-label={t('judging.portal.entries')}>
          <Heading as="h2" size="3" mb="2">
            {t('judging.portal.entries')}
          </Heading>
          {listedExam && listedExam.progress.total > 0 && (
            <Flex direction="column" gap="1" mb="3" data-testid="juror-progress">
              <Text size="2" weight="medium" id="juror-progress-label">
                {t('judging.portal.your_progress', { submitted: listedExam.progress.submitted, total: listedExam.progress.total })}
              </Text>
              <Progress value={(100 * done) / listedExam.progress.total} aria-labelledby="juror-progress-label" />
            </Flex>
          )}
          <Flex direction="column" gap="1" asChild>
            <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {listed.map((a) => (
                <li key={a.id}>
                  <Button
                    variant={a.id === selectedId ? 'solid' : 'soft'}
                    aria-current={a.id === selectedId ? 'true' : undefined}
                    style={{ width: '100%', justifyContent: 'space-between' }}
                    onClick={() => choose(a.id)}
                  >
                    <span>{a.code || entryName(a)}</span>
                    <Badge color={a.status === 'submitted' ? 'green' : a.status === 'recused' ? 'red' : 'gray'}>
                      {t(`judging.portal.statuses.${a.status}`)}
                    </Badge>
                  </Button>
                </li>
              ))}
            </ul>
          </Flex>
        </nav>
        {selected ? (
          <Grid columns={{ initial: '1', md: '3fr 2fr' }} gap="4" align="start">
            <EntryContent assignment={selected} name={entryName(selected)} />
            <ScoringSheet
              key={`${selected.id}:${selected.status}`}
              exam={examOf(selected)}
              assignment={selected}
              entryName={entryName(selected)}
              readOnly={work.read_only}
              onChanged={() => void invalidateJuryWork(queryClient, juryId)}
              onSubmitted={() => {
                const next = nextNeedingWork(listed, selected.id);
                if (next) choose(next.id);
              }}
            />
          </Grid>
        ) : (
          <Text color="gray">{t('judging.portal.select_entry')}</Text>
        )}
      </Grid>
    </Flex>
  );
}

export default JuryPortalScreen;
