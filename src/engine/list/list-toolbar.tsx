import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Flex, Select, TextField } from '@radix-ui/themes';
import { type ReactElement, useEffect, useState } from 'react';
import type { ClientEntity, ListFilter } from '../../shared/descriptor/types.js';
import { useTranslation } from '../i18n/use-translation.js';
import type { EntityListController } from './use-entity-list.js';

const ALL = '__all';

/** The values a select filter offers: its `values` map's keys, else the field's enum. */
export function filterOptions(entity: ClientEntity, filter: ListFilter): string[] {
  if (filter.values) return Object.keys(filter.values);
  const values = entity.jsonSchema.properties?.[filter.field]?.enum;
  return Array.isArray(values) ? values.map(String) : [];
}

/**
 * Free-text search (when the descriptor lists search fields) and a select per select filter,
 * both kept in the URL by the list controller. Typing is debounced so each key is not a request.
 */
export function ListToolbar({ list }: { list: EntityListController }): ReactElement | null {
  const { t } = useTranslation();
  const { entity } = list;
  const [text, setText] = useState(list.search);
  const selects = entity.list.filters.filter((filter) => filter.input === 'select' || filter.input === 'boolean');

  useEffect(() => setText(list.search), [list.search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: debounces typing: only a change of the text starts the timer; list.search is read at that moment, and list.setSearch (a new function each render) would restart it on every list render
  useEffect(() => {
    if (text.trim() === list.search) return;
    const timer = setTimeout(() => list.setSearch(text), 300);
    return () => clearTimeout(timer);
  }, [text]);

  if (entity.list.search.length === 0 && selects.length === 0) return null;
  return (
    <Flex gap="3" mb="3" wrap="wrap" align="center">
      {entity.list.search.length > 0 && (
        <TextField.Root
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={t('common.search.placeholder')}
          aria-label={t('common.search.label')}
          style={{ flex: '1 1 240px', maxWidth: 360 }}
        >
          <TextField.Slot>
            <MagnifyingGlassIcon aria-hidden />
          </TextField.Slot>
        </TextField.Root>
      )}
      {selects.map((filter) => {
        const label = t(filter.label ?? `entities.${entity.name}.filters.${filter.param.replace(/^q\[(.*)\]$/, '$1')}`);
        return (
          <Select.Root
            key={filter.param}
            value={list.filters[filter.param] ?? ALL}
            onValueChange={(value) => list.setFilter(filter.param, value === ALL ? '' : value)}
          >
            <Select.Trigger aria-label={label} variant="surface" />
            <Select.Content position="popper">
              <Select.Item value={ALL}>{t('common.filter.all', { label })}</Select.Item>
              {filterOptions(entity, filter).map((value) => (
                <Select.Item key={value} value={value}>
                  {t([`entities.${entity.name}.enum.${filter.field}.${value}`, `common.status.${value}`], { defaultValue: value })}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        );
      })}
    </Flex>
  );
}
