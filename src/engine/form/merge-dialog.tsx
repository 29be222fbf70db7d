import { Button, Flex, RadioGroup, Table, Text } from '@radix-ui/themes';
import { type ReactElement, useState } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { FieldValue } from '../cells/index.js';
import { fieldLabel } from '../data/entity-labels.js';
import { useTranslation } from '../i18n/use-translation.js';
import { type MergeField, mergedBody } from './merge-plan.js';

function Value({ field, value }: { field: string; value: unknown }): ReactElement {
  return <FieldValue record={{ [field]: value }} display={{ field, cell: 'text' }} place="detail" emptyKey="history.empty_value" />;
}

/**
 * The merge dialog's content: per field the original, theirs and yours; fields changed on one side
 * are already merged, fields both sides changed ask (theirs or yours). `close(body)` saves the
 * merged body; `close()` goes back to the form.
 */
export function MergeContent(props: { entity: ClientEntity; plan: MergeField[]; close: (value?: unknown) => void }): ReactElement {
  const { entity, plan, close } = props;
  const { t } = useTranslation();
  const [choices, setChoices] = useState<Record<string, 'theirs' | 'yours'>>({});
  const shown = plan.filter((f) => f.changed !== 'none');
  const open = plan.filter((f) => f.changed === 'both' && !choices[f.field]);
  return (
    <Flex direction="column" gap="3">
      <Table.Root size="1" variant="surface">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t('history.field')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('history.merge.original')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('history.merge.theirs')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('history.merge.yours')}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t('history.merge.result')}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {shown.map((f) => {
            const label = fieldLabel(entity, { field: f.field }, t);
            return (
              <Table.Row key={f.field}>
                <Table.RowHeaderCell>{label}</Table.RowHeaderCell>
                <Table.Cell>
                  <Value field={f.field} value={f.original} />
                </Table.Cell>
                <Table.Cell>
                  <Value field={f.field} value={f.theirs} />
                </Table.Cell>
                <Table.Cell>
                  <Value field={f.field} value={f.yours} />
                </Table.Cell>
                <Table.Cell>
                  {f.changed === 'both' ? (
                    <RadioGroup.Root
                      aria-label={t('history.merge.choose', { field: label })}
                      value={choices[f.field] ?? ''}
                      onValueChange={(value) => setChoices({ ...choices, [f.field]: value as 'theirs' | 'yours' })}
                    >
                      <RadioGroup.Item value="theirs">{t('history.merge.keep_theirs')}</RadioGroup.Item>
                      <RadioGroup.Item value="yours">{t('history.merge.keep_yours')}</RadioGroup.Item>
                    </RadioGroup.Root>
                  ) : (
                    <Text size="2" color="gray">
                      {t(f.changed === 'theirs' ? 'history.merge.took_theirs' : 'history.merge.took_yours')}
                    </Text>
                  )}
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
      {open.length > 0 && (
        <Text size="2" color="amber">
          {t('history.merge.choose_all', { count: open.length })}
        </Text>
      )}
      <Flex gap="3" justify="end">
        <Button variant="soft" color="gray" onClick={() => close()}>
          {t('history.merge.back')}
        </Button>
        <Button disabled={open.length > 0} onClick={() => close(mergedBody(plan, choices))}>
          {t('history.merge.save')}
        </Button>
      </Flex>
    </Flex>
  );
}
