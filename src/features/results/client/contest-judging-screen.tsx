import { Badge, Card, Flex, Heading, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { Link, useParams } from 'react-router-dom';
import { describeError, ErrorState, LoadingState, ScreenHeader, usePageTitle, useTranslation } from '../../../engine/index.js';
import { contestJudgingOptions } from './queries.js';

/** `/manage-contest/:id/judging`: the contest's judging status and its row in each exam's results. */
export default function ContestJudgingScreen(): ReactElement {
  const { t } = useTranslation();
  const contestId = Number(useParams().id);
  usePageTitle('results.judging.open');
  const query = useQuery(contestJudgingOptions(contestId));
  const trail = [
    { label: t('nav.contests'), url: '/manage-contest' },
    { label: `#${contestId}`, url: `/manage-contest/${contestId}` },
    { label: t('results.judging.open') },
  ];
  if (query.isError) return <ErrorState message={t('results.loadError', { message: describeError(query.error, t) })} />;
  if (!query.data) return <LoadingState />;
  const data = query.data;
  const columns = ['rank', 'submitted', 'mean', 'trimmedMean', 'normalised', 'spread', 'award'] as const;
  return (
    <>
      <ScreenHeader
        trail={trail}
        heading={t('results.judging.title', { id: contestId })}
        subheading={<Badge>{t(`pages.dashboard.judging.${data.status}`)}</Badge>}
      />
      <Flex direction="column" gap="4">
        {data.exams.length === 0 && <Text>{t('results.judging.none')}</Text>}
        {data.exams.map((exam) => (
          <Card key={exam.examId}>
            <Heading as="h2" size="3" mb="2">
              <Link to={`/manage-exam/${exam.examId}/results`}>{exam.name}</Link>
            </Heading>
            <Table.Root size="1">
              <VisuallyHidden asChild>
                <caption>{exam.name}</caption>
              </VisuallyHidden>
              <Table.Header>
                <Table.Row>
                  {columns.map((c) => (
                    <Table.ColumnHeaderCell key={c}>{t(`results.columns.${c}`)}</Table.ColumnHeaderCell>
                  ))}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                <Table.Row>
                  <Table.Cell>{exam.entry.rank ?? t('results.notRanked')}</Table.Cell>
                  <Table.Cell>{`${exam.entry.submitted} / ${exam.entry.assigned}`}</Table.Cell>
                  <Table.Cell>{exam.entry.mean ?? '–'}</Table.Cell>
                  <Table.Cell>{exam.entry.trimmedMean ?? '–'}</Table.Cell>
                  <Table.Cell>{exam.entry.normalised ?? '–'}</Table.Cell>
                  <Table.Cell>{exam.entry.spread ?? '–'}</Table.Cell>
                  <Table.Cell>{exam.entry.award?.name ?? ''}</Table.Cell>
                </Table.Row>
              </Table.Body>
            </Table.Root>
            <Text as="p" size="2" color="gray" mt="2">
              {exam.jurors.map((j) => `${j.name}: ${j.total}`).join(' · ')}
            </Text>
          </Card>
        ))}
      </Flex>
    </>
  );
}
