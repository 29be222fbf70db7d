import { ChevronDownIcon } from '@radix-ui/react-icons';
import { Button, Flex, Popover, Text } from '@radix-ui/themes';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { ComboboxPanel, returnFocusUnlessMoved } from './combobox-panel.js';
import { CURRENCIES, type CurrencyCode, type CurrencyOption, DEFAULT_CURRENCY, findCurrency, searchCurrencies } from './currencies.js';
import { CurrencyFlag } from './currency-flag.js';

/** Delay before the search box takes focus after the list opens. */
export const SEARCH_FOCUS_DELAY_MS = 100;

/** Props of {@link CurrencySelector}. */
export interface CurrencySelectorProps {
  /** The chosen code; empty or unknown shows the default, USD. */
  value?: string | null | undefined;
  onChange: (code: CurrencyCode) => void;
  id?: string | undefined;
  /** Accessible name prefix of the button ('Currency'), followed by the chosen currency. */
  label?: string | undefined;
  disabled?: boolean | undefined;
  invalid?: boolean | undefined;
  'aria-describedby'?: string | undefined;
  onBlur?: (() => void) | undefined;
}

/**
 * The currency selector: a button showing the chosen currency's flag and code that
 * opens a searchable list (MYR, USD, then by code; search by code or name in any case; at most
 * 15rem high). The search box takes focus 100 ms after opening; arrows wrap, Enter selects,
 * Escape closes and returns focus to the button.
 */
export function CurrencySelector(props: CurrencySelectorProps): React.ReactElement {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [activeIndex, setActiveIndex] = useState(-1);
  const searchRef = useRef<HTMLInputElement>(null);
  const listId = `${useId()}-currencies`;
  const selected = findCurrency(props.value) ?? findCurrency(DEFAULT_CURRENCY)!;
  const nameOf = (option: CurrencyOption) => t(option.nameKey, { defaultValue: option.name });

  const matches = useMemo(() => searchCurrencies(CURRENCIES, search, (option) => t(option.nameKey, { defaultValue: option.name })), [search, t]);

  useEffect(() => {
    if (!open) return undefined;
    const timer = setTimeout(() => searchRef.current?.focus(), SEARCH_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [open]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    setSearch('');
    setActiveIndex(next ? CURRENCIES.findIndex((c) => c.code === selected.code) : -1);
    if (!next) props.onBlur?.();
  };

  const choose = (option: CurrencyOption) => {
    props.onChange(option.code);
    onOpenChange(false);
  };

  const triggerName = `${props.label ? `${props.label}: ` : ''}${selected.code} ${nameOf(selected)}`;
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger>
        <Button
          id={props.id}
          type="button"
          variant="surface"
          color={props.invalid ? 'red' : 'gray'}
          disabled={props.disabled}
          aria-label={triggerName}
          aria-invalid={props.invalid || undefined}
          aria-describedby={props['aria-describedby']}
          style={{ flexShrink: 0, alignSelf: 'flex-start' }}
        >
          <CurrencyFlag option={selected} />
          <Text weight="medium">{selected.code}</Text>
          <ChevronDownIcon aria-hidden="true" />
        </Button>
      </Popover.Trigger>
      <Popover.Content
        width="20rem"
        maxWidth="calc(100vw - 16px)"
        size="1"
        align="start"
        aria-label={t('common.currency.listLabel')}
        onOpenAutoFocus={(event) => event.preventDefault()}
        onCloseAutoFocus={(event) => returnFocusUnlessMoved(event)}
      >
        <ComboboxPanel<CurrencyOption>
          listId={listId}
          label={t('common.currency.listLabel')}
          search={search}
          onSearchChange={(next) => {
            setSearch(next);
            setActiveIndex(0);
          }}
          searchPlaceholder={t('common.currency.searchPlaceholder')}
          searchRef={searchRef}
          items={matches}
          getKey={(option) => option.code}
          isSelected={(option) => option.code === selected.code}
          activeIndex={activeIndex}
          onActiveIndexChange={setActiveIndex}
          onSelect={choose}
          emptyText={t('common.currency.noMatch', { search: search.trim() })}
          renderItem={(option) => (
            <Flex align="center" gap="2">
              <CurrencyFlag option={option} />
              <Text size="2" weight="medium">
                {option.code}
              </Text>
              <Text size="2" color="gray" truncate>
                {nameOf(option)}
              </Text>
            </Flex>
          )}
        />
      </Popover.Content>
    </Popover.Root>
  );
}
