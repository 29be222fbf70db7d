import { ChevronLeftIcon, ChevronRightIcon, DoubleArrowLeftIcon, DoubleArrowRightIcon } from '@radix-ui/react-icons';
import { Flex, IconButton, Text } from '@radix-ui/themes';
import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { buildMonthGrid, type CalendarMove, type DateBounds, monthTitle, moveDate, moveForKey, spokenDate, todayIso, weekdayNames } from './calendar-model.js';

/** Props of {@link CalendarGrid}. */
export interface CalendarGridProps extends DateBounds {
  /** The chosen day (`YYYY-MM-DD`), marked selected. */
  value?: string | undefined;
  /** The day that holds keyboard focus; the grid shows its month. */
  focusedDate: string;
  onFocusedDateChange: (iso: string) => void;
  onSelect: (iso: string) => void;
  /** Move DOM focus to the focused day whenever it changes (false while another control has focus). */
  autoFocus: boolean;
  onAutoFocusChange: (autoFocus: boolean) => void;
  language?: string | undefined;
}

const dayButton: React.CSSProperties = {
  width: 'var(--space-7)',
  height: 'var(--space-7)',
  border: 0,
  borderRadius: 'var(--radius-2)',
  font: 'inherit',
  fontSize: 'var(--font-size-2)',
  cursor: 'pointer',
  background: 'transparent',
};

/**
 * One month as an ARIA grid, weeks from Monday, with buttons to the previous and next
 * month and year. The keyboard follows the WAI-ARIA date picker pattern: arrows by day and week,
 * Home/End to the week's ends, Page Up/Down by month, Shift+Page Up/Down by year, Enter or Space
 * to pick. Days outside the shown month are greyed; days outside the bounds cannot be picked.
 */
export function CalendarGrid(props: CalendarGridProps): React.ReactElement {
  const { t, i18n } = useTranslation();
  const language = props.language ?? i18n.language;
  const titleId = useId();
  const focusedRef = useRef<HTMLButtonElement>(null);
  const today = todayIso();
  const weeks = useMemo(() => buildMonthGrid(props.focusedDate, today, { min: props.min, max: props.max }), [props.focusedDate, today, props.min, props.max]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new focused day is the trigger: focus moves to its button (the ref points at it after the render)
  useEffect(() => {
    if (props.autoFocus) focusedRef.current?.focus();
  }, [props.autoFocus, props.focusedDate]);

  const move = (kind: CalendarMove, focusGrid: boolean) => {
    props.onAutoFocusChange(focusGrid);
    props.onFocusedDateChange(moveDate(props.focusedDate, kind));
  };

  const onGridKeyDown = (event: React.KeyboardEvent) => {
    const kind = moveForKey(event.key, event.shiftKey);
    if (!kind) return;
    event.preventDefault();
    move(kind, true);
  };

  const navButton = (kind: CalendarMove, label: string, Icon: typeof ChevronLeftIcon) => (
    <IconButton type="button" size="1" variant="ghost" color="gray" aria-label={label} onClick={() => move(kind, false)}>
      <Icon aria-hidden="true" />
    </IconButton>
  );

  return (
    <Flex direction="column" gap="2">
      <Flex align="center" justify="between" gap="1">
        <Flex gap="3">
          {navButton('previousYear', t('common.calendar.previousYear'), DoubleArrowLeftIcon)}
          {navButton('previousMonth', t('common.calendar.previousMonth'), ChevronLeftIcon)}
        </Flex>
        <Text id={titleId} size="2" weight="bold" aria-live="polite">
          {monthTitle(props.focusedDate, language)}
        </Text>
        <Flex gap="3">
          {navButton('nextMonth', t('common.calendar.nextMonth'), ChevronRightIcon)}
          {navButton('nextYear', t('common.calendar.nextYear'), DoubleArrowRightIcon)}
        </Flex>
      </Flex>
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA date picker pattern: a table with role grid keeps its rows and column headers, the keyboard moves between the day buttons */}
      <table role="grid" aria-labelledby={titleId} onKeyDown={onGridKeyDown} style={{ borderCollapse: 'collapse' }}>
        <thead>
          <tr>
            {weekdayNames(language).map((name) => (
              <th key={name.long} scope="col" abbr={name.long} style={{ padding: 0 }}>
                <Text size="1" color="gray" weight="medium">
                  {name.short}
                </Text>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]!.iso}>
              {week.map((day) => {
                const selected = day.iso === props.value;
                const focused = day.iso === props.focusedDate;
                return (
                  // biome-ignore lint/a11y/useAriaPropsSupportedByRole: a td in a grid is a gridcell, which takes aria-selected (WAI-ARIA date picker pattern)
                  <td key={day.iso} aria-selected={selected} style={{ padding: 1, textAlign: 'center' }}>
                    <button
                      ref={focused ? focusedRef : undefined}
                      type="button"
                      tabIndex={focused ? 0 : -1}
                      aria-label={spokenDate(day.iso, language)}
                      aria-current={day.isToday ? 'date' : undefined}
                      aria-disabled={!day.selectable || undefined}
                      data-outside-month={day.inMonth ? undefined : ''}
                      onClick={() => {
                        if (!day.selectable) return;
                        props.onFocusedDateChange(day.iso);
                        props.onSelect(day.iso);
                      }}
                      style={{
                        ...dayButton,
                        color: selected ? 'var(--accent-contrast)' : !day.selectable ? 'var(--gray-8)' : day.inMonth ? 'var(--gray-12)' : 'var(--gray-a11)',
                        fontWeight: day.inMonth ? 500 : 400,
                        background: selected ? 'var(--accent-9)' : focused ? 'var(--accent-a4)' : day.inMonth ? 'transparent' : 'var(--gray-a3)',
                        boxShadow: day.isToday && !selected ? 'inset 0 0 0 1px var(--accent-8)' : undefined,
                        textDecoration: day.selectable ? undefined : 'line-through',
                        cursor: day.selectable ? 'pointer' : 'not-allowed',
                      }}
                    >
                      {day.day}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </Flex>
  );
}
