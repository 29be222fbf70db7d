import { MagnifyingGlassIcon } from '@radix-ui/react-icons';
import { Box, Button, Flex, Spinner, Text, TextField } from '@radix-ui/themes';
import { useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation.js';

/**
 * A popover's `onCloseAutoFocus`: focus goes back where the popover wants it (its trigger, or
 * `refocus`) only while nothing else has it. The focus returns once the closing animation ends; by
 * then the user may already have opened another list, whose search box must keep the focus.
 */
export function returnFocusUnlessMoved(event: Event, refocus?: () => void): void {
  const active = document.activeElement;
  if (active !== null && active !== document.body) {
    event.preventDefault();
    return;
  }
  if (refocus) {
    event.preventDefault();
    refocus();
  }
}

/** Props of {@link ComboboxPanel}. */
export interface ComboboxPanelProps<T> {
  /** DOM id of the listbox; options get `${listId}-${index}`. */
  listId: string;
  /** Accessible name of the listbox and the search box. */
  label: string;
  search: string;
  onSearchChange: (search: string) => void;
  searchPlaceholder: string;
  searchRef?: React.Ref<HTMLInputElement>;
  items: readonly T[];
  getKey: (item: T) => string;
  isSelected: (item: T) => boolean;
  renderItem: (item: T) => React.ReactNode;
  activeIndex: number;
  onActiveIndexChange: (index: number) => void;
  onSelect: (item: T) => void;
  /** Shown (as a status message) when there are no items and nothing is loading. */
  emptyText: string;
  loading?: boolean;
  /** A failure message; shown with a Retry button calling `onRetry`. */
  error?: string | undefined;
  onRetry?: () => void;
  /** More items exist beyond `items`: reaching the end (scroll or arrow key) calls `onLoadMore`. */
  hasMore?: boolean;
  onLoadMore?: () => void;
}

/**
 * The inside of a select popover: a search box that is an ARIA combobox driving a listbox through
 * `aria-activedescendant` (focus stays in the box while arrows move the active option). ArrowDown
 * and ArrowUp wrap around (or load more at the end when more exist), Enter selects the active
 * option; Escape is left to the surrounding Popover, which closes and returns focus to its trigger.
 */
export function ComboboxPanel<T>(props: ComboboxPanelProps<T>): React.ReactElement {
  const { t } = useTranslation();
  const { items, activeIndex, onActiveIndexChange, listId } = props;
  const optionId = (index: number) => `${listId}-${index}`;
  const hasActive = activeIndex >= 0 && activeIndex < items.length;

  useEffect(() => {
    if (!hasActive) return;
    document.getElementById(optionId(activeIndex))?.scrollIntoView?.({ block: 'nearest' });
  });

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const count = items.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count === 0) return;
      const down = event.key === 'ArrowDown';
      if (down && activeIndex === count - 1 && props.hasMore && props.onLoadMore) {
        props.onLoadMore();
        return;
      }
      const from = hasActive ? activeIndex : down ? -1 : count;
      onActiveIndexChange((from + (down ? 1 : -1) + count) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = hasActive ? items[activeIndex] : undefined;
      if (item !== undefined) props.onSelect(item);
    }
  };

  const onScroll = (event: React.UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    if (props.hasMore && !props.loading && el.scrollTop + el.clientHeight >= el.scrollHeight - 24) props.onLoadMore?.();
  };

  const showEmpty = items.length === 0 && !props.loading && !props.error;
  return (
    <Flex direction="column" gap="2">
      <TextField.Root
        ref={props.searchRef}
        role="combobox"
        aria-label={props.label}
        aria-expanded={items.length > 0}
        aria-controls={items.length > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={hasActive ? optionId(activeIndex) : undefined}
        autoComplete="off"
        placeholder={props.searchPlaceholder}
        value={props.search}
        onChange={(event) => props.onSearchChange(event.target.value)}
        onKeyDown={onKeyDown}
      >
        <TextField.Slot>
          <MagnifyingGlassIcon aria-hidden="true" />
        </TextField.Slot>
      </TextField.Root>
      {items.length > 0 && (
        <Box
          id={listId}
          role="listbox"
          aria-label={props.label}
          aria-busy={props.loading || undefined}
          onScroll={onScroll}
          style={{ maxHeight: '15rem', overflowY: 'auto' }}
        >
          {items.map((item, index) => {
            const active = index === activeIndex;
            const selected = props.isSelected(item);
            return (
              <Box
                key={props.getKey(item)}
                id={optionId(index)}
                role="option"
                aria-selected={selected}
                data-active={active || undefined}
                px="2"
                py="1"
                style={{
                  cursor: 'pointer',
                  borderRadius: 'var(--radius-2)',
                  background: active ? 'var(--accent-a4)' : selected ? 'var(--accent-a2)' : undefined,
                }}
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => !active && onActiveIndexChange(index)}
                onClick={() => props.onSelect(item)}
              >
                {props.renderItem(item)}
              </Box>
            );
          })}
        </Box>
      )}
      <Box role="status" aria-live="polite">
        {props.loading && (
          <Flex align="center" gap="2" px="2" py="1">
            <Spinner size="1" />
            <Text size="2" color="gray">
              {t('common.select.loading')}
            </Text>
          </Flex>
        )}
        {props.error && (
          <Flex align="center" justify="between" gap="2" px="2" py="1">
            <Text size="2" color="red">
              {props.error}
            </Text>
            {props.onRetry && (
              <Button size="1" variant="soft" type="button" onClick={props.onRetry}>
                {t('common.select.retry')}
              </Button>
            )}
          </Flex>
        )}
        {showEmpty && (
          <Box px="2" py="1">
            <Text as="p" size="2" color="gray">
              {props.emptyText}
            </Text>
          </Box>
        )}
      </Box>
    </Flex>
  );
}
