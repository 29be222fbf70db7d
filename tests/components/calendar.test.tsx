import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CalendarDatePicker } from '../../src/engine/widgets/calendar.js';
import { renderWidget } from '../helpers/widgets-render.js';

function Harness(props: { initial?: string; onChange?: (v: string | undefined) => void; min?: string; required?: boolean }) {
  const [value, setValue] = useState<string | undefined>(props.initial);
  return (
    <CalendarDatePicker
      aria-label="Start date"
      value={value}
      min={props.min}
      required={props.required}
      onChange={(next) => {
        setValue(next);
        props.onChange?.(next);
      }}
    />
  );
}

async function setup(props: Parameters<typeof Harness>[0] = {}, language: 'en' | 'id' | 'ms' = 'en') {
  const onChange = vi.fn();
  const rendered = await renderWidget(<Harness {...props} onChange={onChange} />, { language });
  return { ...rendered, onChange, field: screen.getByRole('combobox', { name: 'Start date' }) };
}

async function openCalendar(user: Awaited<ReturnType<typeof setup>>['user'], field: HTMLElement) {
  await user.click(field);
  return screen.findByRole('grid');
}

const day = (name: string) => screen.getByRole('button', { name });
const cellOf = (name: string) => day(name).closest('td')!;

afterEach(() => vi.useRealTimers());

describe('CalendarDatePicker', () => {
  it('starts weeks on Monday', async () => {
    const { user, field } = await setup({ initial: '2025-01-15' });
    const grid = await openCalendar(user, field);
    const headers = within(grid).getAllByRole('columnheader');
    expect(headers.map((h) => h.getAttribute('abbr'))).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    const firstRow = within(grid).getAllByRole('row')[1]!;
    expect(within(firstRow).getAllByRole('button')[0]!.getAttribute('aria-label')).toBe('Monday, 30 December 2024');
    expect(screen.getByText('January 2025')).toBeTruthy();
  });

  it('greys the days outside the shown month', async () => {
    const { user, field } = await setup({ initial: '2025-01-15' });
    await openCalendar(user, field);
    const outside = day('Tuesday, 31 December 2024');
    const inside = day('Wednesday, 1 January 2025');
    expect(outside.hasAttribute('data-outside-month')).toBe(true);
    expect(outside.style.color).toBe('var(--gray-a11)');
    expect(inside.hasAttribute('data-outside-month')).toBe(false);
    expect(inside.style.color).toBe('var(--gray-12)');
    expect(day('Saturday, 1 February 2025').hasAttribute('data-outside-month')).toBe(true);
  });

  it('is read-only: typing does not change it, only picking does', async () => {
    const { user, field, onChange } = await setup({ initial: '2025-01-05' });
    expect(field.hasAttribute('readonly')).toBe(true);
    field.focus();
    await user.keyboard('2030-01-01');
    expect((field as HTMLInputElement).value).toBe('05 Jan 2025');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('stores YYYY-MM-DD and shows 05 Jan 2025', async () => {
    const { user, field, onChange } = await setup({ initial: '2025-01-05' });
    expect((field as HTMLInputElement).value).toBe('05 Jan 2025');
    await openCalendar(user, field);
    expect(cellOf('Sunday, 5 January 2025').getAttribute('aria-selected')).toBe('true');
    await user.click(day('Friday, 10 January 2025'));
    expect(onChange).toHaveBeenCalledWith('2025-01-10');
    expect((field as HTMLInputElement).value).toBe('10 Jan 2025');
    await waitFor(() => expect(screen.queryByRole('grid')).toBeNull());
  });

  it('shows the date, month names and weekdays in the chosen language', async () => {
    const { user, field } = await setup({ initial: '2025-08-05' }, 'ms');
    expect((field as HTMLInputElement).value).toBe('05 Ogs 2025');
    const grid = await openCalendar(user, field);
    expect(screen.getByText('Ogos 2025')).toBeTruthy();
    expect(within(grid).getAllByRole('columnheader')[0]!.getAttribute('abbr')).toBe('Isnin');
    expect(screen.getByRole('button', { name: 'Hari ini' })).toBeTruthy();
  });

  it('picks today with the Today shortcut', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 14, 12, 0));
    const { user, field, onChange } = await setup();
    await openCalendar(user, field);
    expect(day('Friday, 14 March 2025').getAttribute('aria-current')).toBe('date');
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(onChange).toHaveBeenCalledWith('2025-03-14');
    expect((field as HTMLInputElement).value).toBe('14 Mar 2025');
  });

  it('moves between days, weeks, months and years by keyboard and picks with Enter', async () => {
    const { user, field, onChange } = await setup({ initial: '2025-01-05' });
    field.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('grid');
    await waitFor(() => expect(document.activeElement).toBe(day('Sunday, 5 January 2025')));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(day('Monday, 6 January 2025'));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(day('Monday, 13 January 2025'));
    await user.keyboard('{ArrowLeft}{ArrowUp}');
    expect(document.activeElement).toBe(day('Sunday, 5 January 2025'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(day('Monday, 30 December 2024'));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(day('Sunday, 5 January 2025'));
    await user.keyboard('{PageDown}');
    expect(document.activeElement).toBe(day('Wednesday, 5 February 2025'));
    expect(screen.getByText('February 2025')).toBeTruthy();
    await user.keyboard('{Shift>}{PageDown}{/Shift}');
    expect(document.activeElement).toBe(day('Thursday, 5 February 2026'));
    await user.keyboard('{Shift>}{PageUp}{/Shift}{PageUp}');
    expect(document.activeElement).toBe(day('Sunday, 5 January 2025'));
    await user.keyboard('{ArrowRight}{Enter}');
    expect(onChange).toHaveBeenCalledWith('2025-01-06');
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  it('closes with Escape, keeping the value, and returns focus to the field', async () => {
    const { user, field, onChange } = await setup({ initial: '2025-01-05' });
    await openCalendar(user, field);
    await waitFor(() => expect(document.activeElement).toBe(day('Sunday, 5 January 2025')));
    await user.keyboard('{ArrowRight}{Escape}');
    await waitFor(() => expect(screen.queryByRole('grid')).toBeNull());
    expect(onChange).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(field);
  });

  it('pages months with the navigation buttons', async () => {
    const { user, field } = await setup({ initial: '2025-01-05' });
    await openCalendar(user, field);
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByText('February 2025')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Previous year' }));
    expect(screen.getByText('February 2024')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next year' }));
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(screen.getByText('January 2025')).toBeTruthy();
  });

  it('refuses days before the minimum', async () => {
    const { user, field, onChange } = await setup({ initial: '2025-01-15', min: '2025-01-10' });
    await openCalendar(user, field);
    expect(day('Thursday, 9 January 2025').getAttribute('aria-disabled')).toBe('true');
    await user.click(day('Thursday, 9 January 2025'));
    expect(onChange).not.toHaveBeenCalled();
    await user.click(day('Friday, 10 January 2025'));
    expect(onChange).toHaveBeenCalledWith('2025-01-10');
  });

  it('clears an optional date but not a required one', async () => {
    const { user, field, onChange, unmount } = await setup({ initial: '2025-01-05' });
    await openCalendar(user, field);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenCalledWith(undefined);
    expect((field as HTMLInputElement).value).toBe('');
    expect((field as HTMLInputElement).placeholder).toBe('Pick a date');
    unmount();
    const required = await setup({ initial: '2025-01-05', required: true });
    await openCalendar(required.user, required.field);
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
  });
});

describe('the calendar as the RJSF date widget', { timeout: 30_000 }, () => {
  it('picks `format: date` fields on the calendar, an end date bounded by the start date', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 0, 5, 12, 0));
    // withTheme by its own module, as the engine imports it (@rjsf/core's index needs a validator the console does not ship).
    const { default: withTheme } = await import('@rjsf/core/lib/withTheme.js');
    const { templates, widgets } = await import('../../src/engine/rjsf-radix/index.js');
    const { createFormValidator } = await import('../../src/engine/form/schema-validator.js');
    const Form = withTheme({ widgets, templates });
    const schema = {
      type: 'object' as const,
      properties: {
        start_date: { type: 'string' as const, format: 'date', title: 'Start date' },
        end_date: { type: 'string' as const, format: 'date', title: 'End date' },
      },
    };
    const uiSchema = { end_date: { 'ui:options': { minField: 'start_date' } } };
    let data: Record<string, unknown> = {};
    function Host() {
      const [formData, setFormData] = useState<Record<string, unknown>>({ start_date: '2025-01-10' });
      return (
        <Form
          schema={schema}
          uiSchema={uiSchema}
          validator={createFormValidator()}
          formData={formData}
          formContext={{ formData }}
          onChange={(e) => {
            data = e.formData;
            setFormData(e.formData);
          }}
        >
          <span />
        </Form>
      );
    }
    const { user } = await renderWidget(<Host />);
    const start = screen.getByRole('combobox', { name: 'Start date' });
    expect(start.hasAttribute('readonly')).toBe(true);
    expect((start as HTMLInputElement).value).toBe('10 Jan 2025');
    await user.click(screen.getByRole('combobox', { name: 'End date' }));
    await screen.findByRole('grid');
    // Today (5 Jan) lies before the bound, so the calendar opens on the earliest allowed day.
    await waitFor(() => expect(document.activeElement).toBe(day('Friday, 10 January 2025')));
    expect(day('Thursday, 9 January 2025').getAttribute('aria-disabled')).toBe('true');
    await user.click(day('Thursday, 9 January 2025'));
    expect(data.end_date).toBeUndefined();
    await user.click(day('Friday, 17 January 2025'));
    await waitFor(() => expect(data).toEqual({ start_date: '2025-01-10', end_date: '2025-01-17' }));
  });
});
