import { Badge, Flex, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from '../../../engine/index.js';
import type { Matrix, Plan } from './queries.js';

/**
 * An auto-assign preview: who gets what (each entry with the jurors planned for it), every panel
 * juror's load after the plan (in the exam and across the edition), and the entries that fall
 * short, with why (a panel too small, conflicts of interest).
 */
export function PlanPreview({ plan, matrix }: { plan: Plan; matrix: Matrix }): ReactElement {
  const { t } = useTranslation();
  const names = new Map([...matrix.jurors.map((j) => [j.id, j.name] as const), ...plan.load.map((l) => [l.jury_id, l.name] as const)]);
  const codes = new Map(matrix.entries.map((e) => [e.id, e.code]));
  const entryLabel = (id: number) => (codes.get(id) ? `#${id} · ${codes.get(id)}` : `#${id}`);
  const byEntry = new Map<number, number[]>();
  for (const p of plan.planned) byEntry.set(p.contest_id, [...(byEntry.get(p.contest_id) ?? []), p.jury_id]);
  return (
    <Flex direction="column" gap="2" mt="3" data-testid="plan-preview">
      <Text>{t('judging.screen.plan_summary', { count: plan.planned.length })}</Text>
      <Text size="2" color="gray">
        {t('judging.screen.plan_panel', { count: plan.panel.size })}
      </Text>
      {byEntry.size > 0 && (
        <Table.Root size="1">
          <VisuallyHidden asChild>
            <caption>{t('judging.screen.plan_who')}</caption>
          </VisuallyHidden>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t('judging.screen.entries')}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t('judging.screen.plan_who')}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {[...byEntry].map(([entry, jurors]) => (
              <Table.Row key={entry}>
                <Table.RowHeaderCell>{entryLabel(entry)}</Table.RowHeaderCell>
                <Table.Cell>{jurors.map((j) => names.get(j) ?? `#${j}`).join(', ')}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <Table.Root size="1">
        <VisuallyHidden asChild>
          <caption>{t('judging.screen.plan_load')}</caption>
        </VisuallyHidden>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t('judging.screen.jurors')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">{t('judging.panel.load')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">{t('judging.panel.edition_load')}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {plan.load.map((l) => (
            <Table.Row key={l.jury_id}>
              <Table.RowHeaderCell>
                {l.name} {l.expert && <Badge color="green">{t('judging.panel.expert')}</Badge>}
              </Table.RowHeaderCell>
              <Table.Cell justify="end">{l.count}</Table.Cell>
              <Table.Cell justify="end">{l.edition_count}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {plan.short.length > 0 && <Text weight="bold">{t('judging.screen.short_title')}</Text>}
      {plan.short.map((s) => (
        <Text key={s.contest_id} size="2">
          {t('judging.screen.short_row', {
            id: codes.get(s.contest_id) ? `${s.contest_id} · ${codes.get(s.contest_id)}` : s.contest_id,
            missing: s.missing,
            reason: t(`judging.screen.reason_${s.reason}`, { count: s.conflicts }),
          })}
        </Text>
      ))}
    </Flex>
  );
}
