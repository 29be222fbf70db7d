import { CalendarIcon } from '@radix-ui/react-icons';
import { Button, Flex, IconButton, Popover, TextField } from '@radix-ui/themes';
import { useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { CalendarGrid } from './calendar-grid.js';
import { clampToBounds, formatDisplayDate, isIsoDate, isWithinBounds, todayIso } from './calendar-model.js';
import { returnFocusUnlessMoved } from './combobox-panel.js';

/** Props of {@link CalendarDatePicker}. */
export interface CalendarDatePickerProps {
  /** The stored date, `YYYY-MM-DD`; anything else shows as empty. */
  value?: string | null | undefined;
  /** Called with the picked day as `YYYY-MM-DD`, or `undefined` when cleared. */
  onChange: (value: string | undefined) => void;
  id?: string | undefined;
  /** Form field name: a hidden input carries the stored value for plain form posts. */
  name?: string | undefined;
  /** Earliest and latest days that may be picked, inclusive, `YYYY-MM-DD`. */
  min?: string | undefined;
  max?: string | undefined;
  disabled?: boolean | undefined;
  required?: boolean | undefined;
  invalid?: boolean | undefined;
  placeholder?: string | undefined;
  'aria-label'?: string | undefined;
  'aria-describedby'?: string | undefined;
  onBlur?: (() => void) | undefined;
  /** Overrides the display language (defaults to i18next's). */
  language?: string | undefined;
}

/**
 * The calendar date picker: a read-only field showing the date as '05 Jan 2025' in the
 * chosen language, set only by picking in a month grid (weeks from Monday, other months' days
 * greyed, a Today shortcut) and stored as `YYYY-MM-DD`. Opens on click, Enter, Space or Alt+Down;
 * Escape closes and returns focus to the field.
 */
export function CalendarDatePicker(props: CalendarDatePickerProps): React.ReactElement {
  const { t, i18n } = useTranslation();
  const language = props.language ?? i18n.language;
  const value = isIsoDate(props.value) ? props.value : undefined;
  const bounds = { min: props.min, max: props.max };
  const [open, setOpen] = useState(false);
  const [focusedDate, setFocusedDate] = useState(() => value ?? clampToBounds(todayIso(), bounds));
  const [gridFocus, setGridFocus] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const onOpenChange = (next: boolean) => {
    if (next && props.disabled) return;
    if (next) {
      setFocusedDate(value ?? clampToBounds(todayIso(), bounds));
      setGridFocus(true);
    } else {
      props.onBlur?.();
    }
    setOpen(next);
  };

  const pick = (iso: string | undefined) => {
    props.onChange(iso);
    onOpenChange(false);
  };

  const today = todayIso();
  const todayAllowed = isWithinBounds(today, bounds);
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      {/* The field itself is the trigger (Radix Themes 3.3's Popover.Anchor drops its children). */}
      <Popover.Trigger>
        <TextField.Root
          ref={inputRef}
          type="text"
          // A combobox whose popup is the calendar dialog (ARIA 1.2): the trigger's aria-expanded and
          // aria-haspopup are valid on it, not on a plain textbox.
          role="combobox"
          id={props.id}
          readOnly
          value={formatDisplayDate(value, language)}
          placeholder={props.placeholder ?? t('common.calendar.placeholder')}
          disabled={props.disabled}
          required={props.required}
          aria-label={props['aria-label']}
          aria-invalid={props.invalid || undefined}
          aria-describedby={props['aria-describedby']}
          color={props.invalid ? 'red' : undefined}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ' ' || (event.altKey && event.key === 'ArrowDown')) {
              event.preventDefault();
              onOpenChange(true);
            }
          }}
          style={{ cursor: props.disabled ? undefined : 'pointer' }}
        >
          <TextField.Slot side="right">
            <IconButton
              type="button"
              size="1"
              variant="ghost"
              color="gray"
              tabIndex={-1}
              disabled={props.disabled}
              aria-label={t('common.calendar.open')}
              onClick={() => onOpenChange(!open)}
            >
              <CalendarIcon aria-hidden="true" />
            </IconButton>
          </TextField.Slot>
        </TextField.Root>
      </Popover.Trigger>
      {props.name && <input type="hidden" name={props.name} value={value ?? ''} />}
      <Popover.Content
        size="1"
        align="start"
        width="max-content"
        maxWidth="calc(100vw - 16px)"
        aria-label={t('common.calendar.dialogLabel')}
        onOpenAutoFocus={(event) => event.preventDefault()}
        onCloseAutoFocus={(event) => returnFocusUnlessMoved(event, () => inputRef.current?.focus())}
      >
        <Flex direction="column" gap="2">
          <CalendarGrid
            value={value}
            focusedDate={focusedDate}
            onFocusedDateChange={setFocusedDate}
            onSelect={(iso) => pick(iso)}
            autoFocus={gridFocus}
            onAutoFocusChange={setGridFocus}
            min={props.min}
            max={props.max}
            language={language}
          />
          <Flex justify="between" gap="2">
            <Button type="button" size="1" variant="soft" disabled={!todayAllowed} onClick={() => pick(today)}>
              {t('common.calendar.today')}
            </Button>
            {!props.required && value && (
              <Button type="button" size="1" variant="ghost" color="gray" onClick={() => pick(undefined)}>
                {t('common.calendar.clear')}
              </Button>
            )}
          </Flex>
        </Flex>
      </Popover.Content>
    </Popover.Root>
  );
}
