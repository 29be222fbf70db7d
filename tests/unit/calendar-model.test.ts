import { describe, expect, it } from 'vitest';
import {
  boundsFromRules,
  buildMonthGrid,
  clampToBounds,
  formatDisplayDate,
  isIsoDate,
  isWithinBounds,
  monthTitle,
  moveDate,
  moveForKey,
  spokenDate,
  todayIso,
  weekdayNames,
} from '../../src/engine/widgets/calendar-model.js';

describe('calendar model', () => {
  it('starts every week on Monday', () => {
    const grid = buildMonthGrid('2025-01-15', '2025-01-20');
    expect(grid).toHaveLength(6);
    expect(grid[0]?.[0]?.iso).toBe('2024-12-30');
    for (const week of grid) expect(new Date(`${week[0]!.iso}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it('marks the neighbouring months’ days as outside the month', () => {
    const days = buildMonthGrid('2025-01-15', '2025-01-20').flat();
    const inside = days.filter((d) => d.inMonth);
    expect(inside).toHaveLength(31);
    expect(inside[0]?.iso).toBe('2025-01-01');
    expect(days.find((d) => d.iso === '2024-12-31')?.inMonth).toBe(false);
    expect(days.find((d) => d.iso === '2025-02-01')?.inMonth).toBe(false);
  });

  it('begins on the 1st itself when the month starts on a Monday', () => {
    expect(buildMonthGrid('2025-09-10', '2025-09-10')[0]?.[0]?.iso).toBe('2025-09-01');
  });

  it('flags today and days outside the bounds', () => {
    const days = buildMonthGrid('2025-01-15', '2025-01-20', { min: '2025-01-10', max: '2025-01-25' }).flat();
    expect(days.filter((d) => d.isToday).map((d) => d.iso)).toEqual(['2025-01-20']);
    expect(days.find((d) => d.iso === '2025-01-09')?.selectable).toBe(false);
    expect(days.find((d) => d.iso === '2025-01-10')?.selectable).toBe(true);
    expect(days.find((d) => d.iso === '2025-01-26')?.selectable).toBe(false);
  });

  it('shows a stored date as 05 Jan 2025 in the chosen language', () => {
    expect(formatDisplayDate('2025-01-05', 'en')).toBe('05 Jan 2025');
    expect(formatDisplayDate('2025-08-05', 'id')).toBe('05 Agt 2025');
    expect(formatDisplayDate('2025-08-05', 'ms')).toBe('05 Ogs 2025');
    expect(formatDisplayDate('2025-08-05', 'en-US')).toBe('05 Aug 2025');
    expect(formatDisplayDate('', 'en')).toBe('');
    expect(formatDisplayDate('2025-02-30', 'en')).toBe('');
  });

  it('accepts only real YYYY-MM-DD days as stored values', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('05 Jan 2025')).toBe(false);
    expect(isIsoDate('2025-1-5')).toBe(false);
    expect(todayIso(new Date(2025, 0, 5, 23, 30))).toBe('2025-01-05');
  });

  it('names weekdays Monday first in each language', () => {
    expect(weekdayNames('en').map((d) => d.short)).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    expect(weekdayNames('id')[0]).toEqual({ short: 'Sn', long: 'Senin' });
    expect(weekdayNames('ms')[0]).toEqual({ short: 'Is', long: 'Isnin' });
    expect(monthTitle('2025-08-01', 'ms')).toBe('Ogos 2025');
    expect(spokenDate('2025-01-05', 'en')).toBe('Sunday, 5 January 2025');
  });

  it('maps keys to moves and moves by day, week, month and year', () => {
    expect(moveForKey('ArrowRight')).toBe('nextDay');
    expect(moveForKey('PageUp', true)).toBe('previousYear');
    expect(moveForKey('a')).toBeUndefined();
    expect(moveDate('2025-01-31', 'nextDay')).toBe('2025-02-01');
    expect(moveDate('2025-01-01', 'previousWeek')).toBe('2024-12-25');
    expect(moveDate('2025-01-31', 'nextMonth')).toBe('2025-02-28');
    expect(moveDate('2024-02-29', 'nextYear')).toBe('2025-02-28');
    expect(moveDate('2025-01-08', 'weekStart')).toBe('2025-01-06');
    expect(moveDate('2025-01-08', 'weekEnd')).toBe('2025-01-12');
  });

  it('keeps days within inclusive bounds', () => {
    expect(isWithinBounds('2025-01-10', { min: '2025-01-10' })).toBe(true);
    expect(isWithinBounds('2025-01-09', { min: '2025-01-10' })).toBe(false);
    expect(clampToBounds('2025-01-01', { min: '2025-01-10' })).toBe('2025-01-10');
    expect(clampToBounds('2025-03-01', { max: '2025-02-01' })).toBe('2025-02-01');
  });

  it('derives bounds from the rules between date fields, on both fields', () => {
    const rules = [{ field: 'end_date', operator: 'gte' as const, other: 'start_date' }];
    const values = { start_date: '2025-01-10', end_date: '2025-02-01' };
    expect(boundsFromRules('end_date', rules, values)).toEqual({ min: '2025-01-10' });
    expect(boundsFromRules('start_date', rules, values)).toEqual({ max: '2025-02-01' });
    expect(boundsFromRules('end_date', [{ ...rules[0]!, operator: 'gt' }], values)).toEqual({ min: '2025-01-11' });
    expect(boundsFromRules('start_date', [{ ...rules[0]!, operator: 'gt' }], values)).toEqual({ max: '2025-01-31' });
    expect(boundsFromRules('end_date', rules, { end_date: '2025-02-01' })).toEqual({});
    expect(boundsFromRules('name', rules, values)).toEqual({});
  });
});
