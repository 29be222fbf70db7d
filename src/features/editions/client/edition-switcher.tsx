import { Badge, Flex, Select, Text, Tooltip } from '@radix-ui/themes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { describeError, useToasts, useTranslation } from '../../../engine/index.js';
import { isArchived } from '../shared/edition-contract.js';
import { chooseEdition, currentEditionOptions, editionChanged } from './queries.js';

/**
 * The header's edition switcher: the edition the admin works in (kept on the server per person),
 * every edition listed with the archived ones marked (read again each time the list opens, so an
 * edition created meanwhile is there); choosing one refetches every screen. The hint never covers
 * the open list. When the current edition is archived, a read-only banner stands beside it.
 */
export function EditionSwitcher(): ReactElement | null {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useQueryClient();
  const query = useQuery(currentEditionOptions());
  const [hint, setHint] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const choose = useMutation({
    mutationFn: chooseEdition,
    onSuccess: async (data) => {
      await editionChanged(client, data);
      if (data.current) toasts.success(t('entities.edition.switcher.switched', { name: data.current.name }));
    },
    onError: (error) => toasts.error(describeError(error, t, t('entities.edition.switcher.failed'))),
  });
  if (!query.data || query.data.editions.length === 0) return null;
  const { current, editions } = query.data;
  const nameOf = (edition: (typeof editions)[number]) =>
    isArchived(edition) ? t('entities.edition.switcher.archived_mark', { name: edition.name }) : edition.name;

  return (
    <Flex align="center" gap="2" className="edition-switcher">
      <Tooltip content={t('entities.edition.switcher.choose')} open={hint && !listOpen} onOpenChange={setHint}>
        <span>
          <Select.Root
            value={current ? String(current.id) : undefined}
            onValueChange={(value) => choose.mutate(Number(value))}
            open={listOpen}
            onOpenChange={(open) => {
              setListOpen(open);
              if (open) void query.refetch();
            }}
            disabled={choose.isPending}
            size="1"
          >
            <Select.Trigger aria-label={t('entities.edition.switcher.label')} placeholder={t('entities.edition.switcher.none')} variant="soft" />
            <Select.Content position="popper">
              {editions.map((edition) => (
                <Select.Item key={edition.id} value={String(edition.id)}>
                  {nameOf(edition)}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </span>
      </Tooltip>
      {current && isArchived(current) && (
        <Badge color="orange" variant="solid" role="status" aria-live="polite" className="edition-archived-banner">
          <Text size="1" title={t('entities.edition.banner.archived', { name: current.name })}>
            {t('entities.edition.banner.archived_short')}
          </Text>
        </Badge>
      )}
    </Flex>
  );
}

export default EditionSwitcher;
