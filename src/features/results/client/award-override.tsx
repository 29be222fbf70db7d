import { Button, Flex, Select, Text, TextArea, VisuallyHidden } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactElement, useState } from 'react';
import { describeError, useDialogs, useToasts, useTranslation } from '../../../engine/index.js';
import type { ExamResultsData, ResultsEntry } from '../shared/results-contract.js';
import { type AwardCategory, awardCategoriesOptions, resultsApi, resultsChanged } from './queries.js';

/** A failed write's text: its field errors by key in the user's language, else the error's code. */
function errorText(error: unknown, t: TFunction): string {
  const fields = (error as { errors?: Array<{ messageKey?: string; params?: Record<string, unknown> }> }).errors ?? [];
  const texts = fields.filter((e) => e.messageKey).map((e) => t(e.messageKey!, e.params ?? {}));
  return texts.length > 0 ? texts.join(' ') : describeError(error, t);
}

const NONE = 'none';

/** What the dialog's fields hold while it is open (the dialog renders them outside this component's state). */
interface Choice {
  award: string;
  reason: string;
}

function OverrideFields({ categories, choice, withAward }: { categories: AwardCategory[]; choice: Choice; withAward: boolean }): ReactElement {
  const { t } = useTranslation();
  const [award, setAward] = useState(choice.award);
  return (
    <Flex direction="column" gap="3">
      {withAward && (
        <label>
          <Text as="div" size="2" mb="1">
            {t('results.columns.award')}
          </Text>
          <Select.Root
            value={award}
            onValueChange={(value) => {
              setAward(value);
              choice.award = value;
            }}
          >
            <Select.Trigger aria-label={t('results.columns.award')} />
            <Select.Content>
              <Select.Item value={NONE}>{t('results.awardNone')}</Select.Item>
              {categories.map((c) => (
                <Select.Item key={c.id} value={String(c.id)}>
                  {c.name}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </label>
      )}
      <label>
        <Text as="div" size="2" mb="1">
          {t('results.reason')}
        </Text>
        <TextArea aria-label={t('results.reason')} minLength={3} maxLength={500} onChange={(e) => (choice.reason = e.target.value)} />
        <Text as="div" size="1" color="gray">
          {t('results.reasonHelp')}
        </Text>
      </label>
    </Flex>
  );
}

/**
 * An entry's award override: 'Change Award' picks another award (or none) with a
 * required reason; an overridden award offers 'Restore Rule Award', also with a reason. The server
 * audits both and refuses them once the exam is final.
 */
export function AwardOverride({ data, entry }: { data: ExamResultsData; entry: ResultsEntry }): ReactElement | null {
  const { t } = useTranslation();
  const toasts = useToasts();
  const dialogs = useDialogs();
  const client = useQueryClient();
  const categories = useQuery(awardCategoriesOptions());
  if (data.finalised) return null;
  const examId = data.exam.id;
  const apply = async (work: () => Promise<ExamResultsData>) => {
    try {
      resultsChanged(client, await work());
      toasts.success(t('results.toasts.awardChanged'));
    } catch (error) {
      toasts.error(errorText(error, t));
      throw error;
    }
  };
  const change = () => {
    const choice: Choice = { award: entry.award ? String(entry.award.id) : NONE, reason: '' };
    return dialogs.confirm({
      title: t('results.overrideTitle', { id: entry.contestId }),
      description: <OverrideFields categories={categories.data ?? []} choice={choice} withAward />,
      confirmText: t('results.actions.override'),
      onConfirm: () =>
        apply(() => resultsApi.overrideAward(examId, entry.contestId, choice.award === NONE ? null : Number(choice.award), choice.reason.trim())),
    });
  };
  const restore = () => {
    const choice: Choice = { award: NONE, reason: '' };
    return dialogs.confirm({
      title: t('results.restoreTitle', { id: entry.contestId }),
      description: (
        <Flex direction="column" gap="2">
          <Text size="2">{t('results.awardByRule', { name: entry.ruleAward?.name ?? t('results.awardNone') })}</Text>
          <OverrideFields categories={[]} choice={choice} withAward={false} />
        </Flex>
      ),
      confirmText: t('results.actions.restore'),
      onConfirm: () => apply(() => resultsApi.restoreAward(examId, entry.contestId, choice.reason.trim())),
    });
  };
  return (
    // The ghost buttons without their negative side margins, so the last column never sticks out of the table (1,280 px windows).
    <Flex gap="1" mt="1" wrap="wrap">
      {/* The entry's number completes each button's name for screen readers (the visible text starts it). */}
      <Button size="1" variant="ghost" style={{ marginInline: 0 }} onClick={() => void change()}>
        {t('results.actions.override')}
        <VisuallyHidden>{` #${entry.contestId}`}</VisuallyHidden>
      </Button>
      {entry.awardOverridden && (
        <Button size="1" variant="ghost" color="gray" style={{ marginInline: 0 }} onClick={() => void restore()}>
          {t('results.actions.restore')}
          <VisuallyHidden>{` #${entry.contestId}`}</VisuallyHidden>
        </Button>
      )}
    </Flex>
  );
}
