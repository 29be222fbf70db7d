import { Theme } from '@radix-ui/themes';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../src/app/i18n.js';
import { formatLongDate, relativeAge } from '../../src/engine/cells/dates.js';
import { FieldValue } from '../../src/engine/cells/index.js';
import { safeHttpUrl } from '../../src/engine/cells/safe-url.js';
import type { FieldDisplay } from '../../src/shared/descriptor/index.js';

function renderCell(record: Record<string, unknown>, display: FieldDisplay, place: 'list' | 'detail' = 'list') {
  return render(
    <I18nextProvider i18n={i18n}>
      <Theme>
        <FieldValue record={record} display={display} place={place} />
      </Theme>
    </I18nextProvider>,
  );
}

describe('dates', () => {
  it('formats the long date in UTC, treating zone-less values as UTC', () => {
    expect(formatLongDate('2025-01-05T23:30:00Z', 'en')).toBe('January 5, 2025');
    expect(formatLongDate('2025-01-05 23:30:00', 'en')).toBe('January 5, 2025');
    expect(formatLongDate('2025-01-06T01:30:00+08:00', 'en')).toBe('January 5, 2025');
    expect(formatLongDate('2025-01-05', 'en')).toBe('January 5, 2025');
  });

  it('formats in the reader language', () => {
    expect(formatLongDate('2025-01-05T10:00:00Z', 'id')).toBe('5 Januari 2025');
    expect(formatLongDate('2025-01-05T10:00:00Z', 'ms')).toBe('5 Januari 2025');
  });

  it('tells empty from unparsable', () => {
    expect(formatLongDate(null, 'en')).toBeNull();
    expect(formatLongDate('', 'en')).toBeNull();
    expect(formatLongDate('not a date', 'en')).toBe('invalid');
  });

  it('measures age in days, hours, minutes, else just now', () => {
    const now = new Date('2025-01-10T12:00:00Z');
    expect(relativeAge('2025-01-08T11:00:00Z', now)).toEqual({ unit: 'days', count: 2 });
    expect(relativeAge('2025-01-10 09:00:00', now)).toEqual({ unit: 'hours', count: 3 });
    expect(relativeAge('2025-01-10T11:55:00Z', now)).toEqual({ unit: 'minutes', count: 5 });
    expect(relativeAge('2025-01-10T11:59:30Z', now)).toEqual({ unit: 'now', count: 0 });
    expect(relativeAge('2025-01-11T00:00:00Z', now)).toEqual({ unit: 'now', count: 0 });
  });
});

describe('safeHttpUrl', () => {
  it('accepts only absolute http(s) URLs', () => {
    expect(safeHttpUrl('https://example.com/a.png')).toBe('https://example.com/a.png');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:image/png;base64,AAAA')).toBeNull();
    expect(safeHttpUrl('/relative.png')).toBeNull();
    expect(safeHttpUrl(42)).toBeNull();
  });
});

describe('cells', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  it("shows 'Invalid Date' for an unparsable date and 'Not provided' for an empty value on a detail page", () => {
    renderCell({ created_at: 'soon', updated_at: null }, { field: 'created_at', cell: 'date' });
    expect(screen.getByText('Invalid Date')).toBeTruthy();
    renderCell({ updated_at: null }, { field: 'updated_at', cell: 'date' }, 'detail');
    expect(screen.getByText('Not provided')).toBeTruthy();
  });

  it("shows 'Just now' for a fresh relative date", () => {
    renderCell({ created_at: new Date().toISOString() }, { field: 'created_at', cell: 'relative-date' });
    expect(screen.getByText('Just now')).toBeTruthy();
  });

  it('badges active and inactive statuses from strings and booleans', async () => {
    renderCell({ status: 'active' }, { field: 'status', cell: 'status-badge' });
    renderCell({ is_active: false }, { field: 'is_active', cell: 'status-badge' });
    renderCell({ is_active: 1 }, { field: 'is_active', cell: 'status-badge' });
    renderCell({ status: 'weird' }, { field: 'status', cell: 'status-badge' });
    expect(screen.getAllByText('Active')).toHaveLength(2);
    expect(screen.getByText('Inactive')).toBeTruthy();
    expect(screen.getByText('Unknown')).toBeTruthy();
  });

  it("uses the descriptor's badges and falls back to grey 'Unknown'", () => {
    const display: FieldDisplay = {
      field: 'status',
      cell: 'badge',
      badges: { approved: { label: 'common.status.active', color: 'green' } },
      fallbackBadge: { label: 'common.status.unknown', color: 'gray' },
    };
    renderCell({ status: 'approved' }, display);
    renderCell({ status: 'mystery' }, display);
    expect(screen.getByText('Active').closest('[data-accent-color]')?.getAttribute('data-accent-color')).toBe('green');
    expect(screen.getByText('Unknown').closest('[data-accent-color]')?.getAttribute('data-accent-color')).toBe('gray');
  });

  it('truncates long text in a list with the full text on hover, and shows it whole on a detail page', () => {
    const text = 'A category for the most effective integrated campaign of the year';
    renderCell({ description: text }, { field: 'description', cell: 'truncate', truncate: 20 });
    const cut = screen.getByTitle(text);
    expect(cut.textContent).toBe('A category for the…');
    renderCell({ description: text }, { field: 'description', cell: 'truncate', truncate: 20 }, 'detail');
    expect(screen.getByText(text)).toBeTruthy();
  });

  it('links only http(s) URLs, in a new tab without an opener', () => {
    renderCell({ video_link: 'https://video.example/v/1' }, { field: 'video_link', cell: 'link', linkLabel: 'common.edit' });
    const link = screen.getByRole('link', { name: 'Edit' });
    expect(link.getAttribute('href')).toBe('https://video.example/v/1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    renderCell({ video_link: 'javascript:alert(1)' }, { field: 'video_link', cell: 'link' });
    expect(screen.queryByRole('link', { name: /javascript/ })).toBeNull();
    expect(screen.getByText('javascript:alert(1)')).toBeTruthy();
  });

  it('shows an http(s) image as a round thumbnail and hides it when it fails to load', () => {
    const { container } = renderCell({ logo_url: 'https://img.example/logo.png' }, { field: 'logo_url', cell: 'image' });
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://img.example/logo.png');
    expect(img.style.borderRadius).toBe('50%');
    fireEvent.error(img);
    expect(container.querySelector('img')).toBeNull();
    const other = renderCell({ logo_url: 'javascript:alert(1)' }, { field: 'logo_url', cell: 'image' });
    expect(other.container.querySelector('img')).toBeNull();
  });

  it("shows a related record's field, or the descriptor's placeholder with the raw id", () => {
    renderCell({ category_id: 7, category: { name: 'Film' } }, { field: 'category_id', cell: 'relation', relation: 'category', display: 'name' });
    expect(screen.getByText('Film')).toBeTruthy();
    i18n.addResource('en', 'common', 'test.category_fallback', 'Category #{{id}}');
    renderCell(
      { category_id: 9, category: null },
      { field: 'category_id', cell: 'relation', relation: 'category', display: 'name', empty: 'test.category_fallback' },
    );
    expect(screen.getByText('Category #9')).toBeTruthy();
  });

  it('links e-mail addresses and phone numbers', () => {
    renderCell({ email: 'ana@example.com' }, { field: 'email', cell: 'email' });
    renderCell({ phone: '+60 12-345 6789' }, { field: 'phone', cell: 'phone' });
    expect(screen.getByRole('link', { name: 'ana@example.com' }).getAttribute('href')).toBe('mailto:ana@example.com');
    expect(screen.getByRole('link', { name: '+60 12-345 6789' }).getAttribute('href')).toBe('tel:+60123456789');
  });
});
