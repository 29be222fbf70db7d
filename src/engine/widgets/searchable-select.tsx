import { ChevronDownIcon, Cross2Icon } from '@radix-ui/react-icons';
import { Button, Flex, IconButton, Popover, Text } from '@radix-ui/themes';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { ComboboxPanel, returnFocusUnlessMoved } from './combobox-panel.js';
import { filterOptions, type SelectOption, sameValue } from './select-option.js';
import { type LoadOptions, useRemoteOptions } from './use-remote-options.js';

export type { SelectOption } from './select-option.js';
export type { LoadOptions, LoadOptionsResult } from './use-remote-options.js';

/** Props of {@link SearchableSelect}: give `options` (searched locally) or `loadOptions` (searched on the server). */
export interface SearchableSelectProps {
  value: string | number | null | undefined;
  /** Called with the chosen option, or `undefined` when the choice is cleared. */
  onChange: (value: string | number | undefined, option: SelectOption | undefined) => void;
  options?: readonly SelectOption[] | undefined;
  loadOptions?: LoadOptions | undefined;
  /** Finds the option of a value the loaded pages may not hold (the saved reference of a record). */
  resolveOption?: ((value: string | number, signal: AbortSignal) => Promise<SelectOption | undefined>) | undefined;
  id?: string | undefined;
  /** Accessible name of the button, followed by the chosen label ('Category: Best Film'). */
  label?: string | undefined;
  placeholder?: string | undefined;
  searchPlaceholder?: string | undefined;
  disabled?: boolean | undefined;
  /** Shows a spinner in the button and refuses to open (e.g. while the form is loading). */
  loading?: boolean | undefined;
  invalid?: boolean | undefined;
  /** Offer a button that clears the choice. */
  clearable?: boolean | undefined;
  'aria-describedby'?: string | undefined;
  onBlur?: (() => void) | undefined;
}

/**
 * The searchable select: a button showing the chosen label or 'Select One' that opens a
 * search box ('Find option') over the options (label and optional description), 'No data found'
 * when nothing matches. With `loadOptions` the search runs on the server as the user types
 * (debounced, stale requests cancelled, further pages on scroll), so it stays fast on large tables.
 * Keyboard: arrows wrap, Enter selects, Escape closes and returns focus to the button.
 */
export function SearchableSelect(props: SearchableSelectProps): React.ReactElement {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [activeIndex, setActiveIndex] = useState(-1);
  const [chosen, setChosen] = useState<SelectOption | undefined>(undefined);
  const searchRef = useRef<HTMLInputElement>(null);
  const listId = `${useId()}-options`;
  const remote = useRemoteOptions(props.loadOptions, search, open);

  const items = useMemo(
    () => (props.loadOptions ? remote.options : filterOptions(props.options ?? [], search)),
    [props.loadOptions, props.options, remote.options, search],
  );

  const hasValue = props.value !== undefined && props.value !== null && props.value !== '';
  const known = [chosen, ...(props.options ?? []), ...remote.options].find((o) => o && sameValue(o.value, props.value));
  const resolved = useResolvedOption(hasValue && !known ? props.value : undefined, props.resolveOption);
  const selected = hasValue ? (known ?? resolved) : undefined;

  useEffect(() => {
    if (!open) return undefined;
    const timer = setTimeout(() => searchRef.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [open]);

  // Keep the active option on the chosen one when a page arrives, else on the first.
  useEffect(() => {
    if (!open) return;
    setActiveIndex((current) => {
      if (current >= 0 && current < items.length) return current;
      const index = items.findIndex((o) => sameValue(o.value, props.value));
      return index >= 0 ? index : items.length > 0 ? 0 : -1;
    });
  }, [items, open, props.value]);

  const onOpenChange = (next: boolean) => {
    if (next && (props.disabled || props.loading)) return;
    setOpen(next);
    setSearch('');
    setActiveIndex(-1);
    if (!next) props.onBlur?.();
  };

  const choose = (option: SelectOption | undefined) => {
    setChosen(option);
    props.onChange(option?.value, option);
    if (open) onOpenChange(false);
  };

  const shown = selected?.label ?? (hasValue ? String(props.value) : undefined);
  const triggerName = `${props.label ? `${props.label}: ` : ''}${shown ?? props.placeholder ?? t('common.select.placeholder')}`;
  return (
    <Flex gap="1" align="center" width="100%">
      <Popover.Root open={open} onOpenChange={onOpenChange}>
        <Popover.Trigger>
          <Button
            id={props.id}
            type="button"
            variant="surface"
            color={props.invalid ? 'red' : 'gray'}
            disabled={props.disabled}
            loading={props.loading}
            aria-label={triggerName}
            aria-invalid={props.invalid || undefined}
            aria-describedby={props['aria-describedby']}
            style={{ flexGrow: 1, justifyContent: 'space-between', minWidth: 0 }}
          >
            <Text truncate color={shown ? undefined : 'gray'} weight="regular">
              {shown ?? props.placeholder ?? t('common.select.placeholder')}
            </Text>
            <ChevronDownIcon aria-hidden="true" />
          </Button>
        </Popover.Trigger>
        <Popover.Content
          size="1"
          align="start"
          width="var(--radix-popover-trigger-width)"
          minWidth="16rem"
          aria-label={props.label ?? t('common.select.optionsLabel')}
          maxWidth="calc(100vw - 16px)"
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => returnFocusUnlessMoved(event)}
        >
          <ComboboxPanel<SelectOption>
            listId={listId}
            label={props.label ?? t('common.select.optionsLabel')}
            search={search}
            onSearchChange={(next) => {
              setSearch(next);
              setActiveIndex(-1);
            }}
            searchPlaceholder={props.searchPlaceholder ?? t('common.select.searchPlaceholder')}
            searchRef={searchRef}
            items={items}
            getKey={(option) => String(option.value)}
            isSelected={(option) => sameValue(option.value, props.value)}
            activeIndex={activeIndex}
            onActiveIndexChange={setActiveIndex}
            onSelect={choose}
            emptyText={t('common.select.noData')}
            loading={remote.loading}
            error={remote.error ? t('common.select.loadError') : undefined}
            onRetry={remote.retry}
            hasMore={remote.hasMore}
            onLoadMore={remote.loadMore}
            renderItem={(option) => (
              <Flex direction="column">
                <Text size="2">{option.label}</Text>
                {option.description && (
                  <Text size="1" color="gray">
                    {option.description}
                  </Text>
                )}
              </Flex>
            )}
          />
        </Popover.Content>
      </Popover.Root>
      {props.clearable && hasValue && !props.disabled && (
        <IconButton type="button" variant="ghost" color="gray" size="1" aria-label={t('common.select.clear')} onClick={() => choose(undefined)}>
          <Cross2Icon aria-hidden="true" />
        </IconButton>
      )}
    </Flex>
  );
}

/** Looks up the option of `value` through `resolveOption` (cancelled when the value changes). */
function useResolvedOption(value: string | number | null | undefined, resolveOption: SearchableSelectProps['resolveOption']): SelectOption | undefined {
  const [resolved, setResolved] = useState<SelectOption | undefined>(undefined);
  const resolveRef = useRef(resolveOption);
  resolveRef.current = resolveOption;
  const canResolve = resolveOption !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the resolver is read through a ref (a caller may pass a new function each render); a resolver appearing or going is the trigger
  useEffect(() => {
    const resolve = resolveRef.current;
    if (value === undefined || value === null || value === '' || !resolve) return undefined;
    const controller = new AbortController();
    resolve(value, controller.signal).then(
      (option) => {
        if (!controller.signal.aborted) setResolved(option);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [value, canResolve]);
  return resolved && sameValue(resolved.value, value) ? resolved : undefined;
}
