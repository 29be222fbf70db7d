import { MixerHorizontalIcon, ReloadIcon } from '@radix-ui/react-icons';
import { Box, Button, Card, Flex, Grid, Heading, Select, Text } from '@radix-ui/themes';
import { type FormEvent, type ReactElement, useEffect, useId, useState } from 'react';
import type { ClientEntity, ListFilter, SortDirection } from '../../shared/descriptor/types.js';
import { fieldLabel } from '../data/entity-labels.js';
import { useTranslation } from '../i18n/use-translation.js';
import { FilterField, filterLabel } from './filter-inputs.js';
import { checkTypedId, MAX_TYPED_ID, MAX_TYPED_ID_LENGTH, type TypedIdProblem } from './typed-id.js';
import type { EntityListController } from './use-entity-list.js';

/** The filters a panel offers, in its order: the descriptor's `filterPanel.filters`, else all. */
export function panelFilters(entity: ClientEntity): ListFilter[] {
  const params = entity.list.filterPanel?.filters;
  if (!params) return entity.list.filters;
  return params.map((param) => entity.list.filters.find((filter) => filter.param === param)).filter((f): f is ListFilter => !!f);
}

/**
 * The list's 'Filters & Sorting' card (descriptor `list.filterPanel`): an input per filter and,
 * when asked, Sort By and direction. Nothing reaches the list until 'Apply Filters' (or Enter),
 * which returns to page 1; 'Reset Filters' clears filters and sort back to the defaults. The card
 * mirrors the URL, so back/forward, 'Clear all filters' and shared links show what is applied.
 */
export function FilterPanel({ list }: { list: EntityListController }): ReactElement {
  const { entity } = list;
  const { t } = useTranslation();
  const panel = entity.list.filterPanel ?? {};
  const filters = panelFilters(entity);
  const [draft, setDraft] = useState<Record<string, string>>(list.filters);
  const [sort, setSort] = useState(list.sort);
  const [problems, setProblems] = useState<Record<string, TypedIdProblem>>({});
  const appliedKey = JSON.stringify([list.filters, list.sort]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the applied filters and sort are compared by value (`appliedKey`): a new object with the same content is no change
  useEffect(() => {
    setDraft(list.filters);
    setSort(list.sort);
    setProblems((current) => (Object.keys(current).length === 0 ? current : {}));
  }, [appliedKey]);
  const headingId = useId();
  const sortId = useId();
  const directionId = useId();

  // A typed ID is applied only when it is a positive integer; otherwise the field says why.
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = { ...draft };
    const found: Record<string, TypedIdProblem> = {};
    for (const filter of filters) {
      if (!filter.typedId) continue;
      const checked = checkTypedId(draft[filter.param] ?? '');
      if ('problem' in checked) found[filter.param] = checked.problem;
      else next[filter.param] = checked.value;
    }
    setProblems(found);
    const invalid = Object.keys(found)[0];
    if (invalid) {
      const field = event.currentTarget.elements.namedItem(invalid);
      if (field instanceof HTMLElement) field.focus();
      return;
    }
    list.applyFilters(next, panel.sort ? sort : undefined);
  };
  const problemText = (filter: ListFilter): string | undefined => {
    const problem = problems[filter.param];
    return problem
      ? t(`common.filters.typedId.${problem}`, { label: filterLabel(entity, filter, t), max: MAX_TYPED_ID, digits: MAX_TYPED_ID_LENGTH })
      : undefined;
  };

  return (
    <Card size="2" mb="4" asChild>
      <search aria-labelledby={headingId}>
        <form onSubmit={apply}>
          <Flex align="center" gap="2" mb="3">
            <MixerHorizontalIcon aria-hidden />
            <Heading as="h2" size="3" id={headingId}>
              {t(panel.title ?? 'common.filters.title')}
            </Heading>
          </Flex>
          <Grid columns={{ initial: '1', sm: '2', md: '4' }} gap="3" align="end">
            {filters.map((filter) => (
              <FilterField
                key={filter.param}
                entity={entity}
                filter={filter}
                value={draft[filter.param] ?? ''}
                error={problemText(filter)}
                onChange={(value) => {
                  setDraft((current) => ({ ...current, [filter.param]: value }));
                  setProblems(({ [filter.param]: _cleared, ...rest }) => rest);
                }}
              />
            ))}
            {panel.sort && (
              <>
                <Flex direction="column" gap="1">
                  <Text as="label" htmlFor={sortId} size="2" weight="medium">
                    {t('common.filters.sort_by')}
                  </Text>
                  <Select.Root value={sort.field} onValueChange={(field) => setSort((current) => ({ ...current, field }))}>
                    <Select.Trigger id={sortId} aria-label={t('common.filters.sort_by')} variant="surface" />
                    <Select.Content position="popper">
                      {entity.list.sorts.map((field) => (
                        <Select.Item key={field} value={field}>
                          {t([`entities.${entity.name}.sorts.${field}`], { defaultValue: fieldLabel(entity, { field }, t as never) })}
                        </Select.Item>
                      ))}
                    </Select.Content>
                  </Select.Root>
                </Flex>
                <Flex direction="column" gap="1">
                  <Text as="label" htmlFor={directionId} size="2" weight="medium">
                    {t('common.filters.direction')}
                  </Text>
                  <Select.Root
                    value={sort.direction}
                    onValueChange={(direction) => setSort((current) => ({ ...current, direction: direction as SortDirection }))}
                  >
                    <Select.Trigger id={directionId} aria-label={t('common.filters.direction')} variant="surface" />
                    <Select.Content position="popper">
                      <Select.Item value="asc">{t('common.filters.asc')}</Select.Item>
                      <Select.Item value="desc">{t('common.filters.desc')}</Select.Item>
                    </Select.Content>
                  </Select.Root>
                </Flex>
              </>
            )}
          </Grid>
          <Box mt="3">
            <Flex gap="2" justify="end" wrap="wrap">
              <Button type="button" variant="soft" color="gray" onClick={() => list.resetFilters()}>
                <ReloadIcon aria-hidden />
                {t('common.filters.reset')}
              </Button>
              <Button type="submit">{t('common.filters.apply')}</Button>
            </Flex>
          </Box>
        </form>
      </search>
    </Card>
  );
}
