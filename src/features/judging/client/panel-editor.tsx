import { Badge, Button, Card, Checkbox, Flex, Heading, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { describeError, useToasts, useTranslation } from '../../../engine/index.js';
import { invalidateJudging } from './query-keys.js';
import { panelOptions, seasonApi } from './season-queries.js';

/**
 * The panel of an exam: every active juror (and any on the panel) with a checkbox, their load in the
 * exam and across its edition, and whether their application names the exam's category. Saving
 * stores the panel auto-assign draws from; until then the panel is the round's active jurors.
 */
export function PanelEditor({ examId, categoryId, locked }: { examId: number; categoryId: number; locked: boolean }): ReactElement {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useQueryClient();
  const panel = useQuery(panelOptions(examId));
  const [chosen, setChosen] = useState<Set<number> | null>(null);
  const save = useMutation({
    mutationFn: (ids: number[]) => seasonApi.savePanel(examId, ids),
    onSuccess: () => {
      setChosen(null);
      toasts.success(t('judging.panel.saved'));
      void invalidateJudging(client);
    },
    onError: (error) => toasts.error(describeError(error, t)),
  });
  const headingId = `panel-${examId}`;
  if (panel.isPending) return <Text color="gray">{t('judging.screen.loading')}</Text>;
  if (panel.isError) return <Text color="red">{t('judging.screen.load_error', { message: describeError(panel.error, t) })}</Text>;
  const selected = chosen ?? new Set(panel.data.jury_ids);
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  return (
    <Card asChild>
      <section aria-labelledby={headingId}>
        <Flex justify="between" align="center" wrap="wrap" gap="2" mb="2">
          <Heading as="h2" size="4" id={headingId}>
            {t('judging.panel.title')}
          </Heading>
          <Text size="2" color="gray">
            {panel.data.default ? t('judging.panel.default') : t('judging.panel.count', { count: selected.size })}
          </Text>
        </Flex>
        <Table.Root size="1">
          <VisuallyHidden asChild>
            <caption>{t('judging.panel.title')}</caption>
          </VisuallyHidden>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('judging.panel.on_panel')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('judging.screen.jurors')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('judging.screen.round')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t('judging.panel.load')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t('judging.panel.edition_load')}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {panel.data.jurors.map((j) => (
              <Table.Row key={j.id}>
                <Table.Cell>
                  <Checkbox
                    aria-label={t('judging.panel.toggle', { juror: j.name })}
                    checked={selected.has(j.id)}
                    disabled={locked || save.isPending}
                    onCheckedChange={() => toggle(j.id)}
                  />
                </Table.Cell>
                <Table.RowHeaderCell>
                  <Flex gap="2" align="center" wrap="wrap">
                    <Text>{j.name}</Text>
                    {j.company && (
                      <Text size="1" color="gray">
                        {j.company}
                      </Text>
                    )}
                    {j.expertise.includes(categoryId) && <Badge color="green">{t('judging.panel.expert')}</Badge>}
                    {!j.is_active && <Badge color="gray">{t('judging.rules.inactive')}</Badge>}
                  </Flex>
                </Table.RowHeaderCell>
                <Table.Cell>{t(`entities.jury.rounds.${j.round}`)}</Table.Cell>
                <Table.Cell justify="end">{j.load}</Table.Cell>
                <Table.Cell justify="end">{j.edition_load}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <Flex gap="2" mt="2" align="center">
          <Button disabled={locked || save.isPending || selected.size === 0 || chosen === null} onClick={() => save.mutate([...selected])}>
            {t('judging.panel.save')}
          </Button>
          {selected.size === 0 && (
            <Text size="2" color="red">
              {t('judging.panel.empty')}
            </Text>
          )}
        </Flex>
      </section>
    </Card>
  );
}
