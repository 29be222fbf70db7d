import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Breadcrumb, breadcrumbTarget } from '../../src/engine/widgets/breadcrumb.js';
import { renderWidget } from '../helpers/widgets-render.js';

describe('Breadcrumb', () => {
  const items = [
    { label: 'Dashboard', url: '/dashboard' },
    { label: 'Manage Category', url: '/manage-category' },
    { label: 'Prize money', url: '/manage-category/3' },
  ];

  it('renders a labelled navigation landmark with an ordered list of the items', async () => {
    await renderWidget(<Breadcrumb items={items} />);
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    const entries = within(nav).getAllByRole('listitem');
    expect(entries.map((li) => li.textContent)).toEqual(['Dashboard', 'Manage Category', 'Prize money']);
  });

  it('links every item but the last, which is the current page', async () => {
    await renderWidget(<Breadcrumb items={items} />);
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveProperty('pathname', '/dashboard');
    expect(screen.getByRole('link', { name: 'Manage Category' }).getAttribute('href')).toBe('/manage-category');
    expect(screen.queryByRole('link', { name: 'Prize money' })).toBeNull();
    expect(screen.getByText('Prize money').getAttribute('aria-current')).toBe('page');
  });

  it('never links a URL that is neither an in-app path nor http(s)', async () => {
    await renderWidget(<Breadcrumb items={[{ label: 'Evil', url: 'javascript:alert(1)' }, { label: 'Here' }]} />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(breadcrumbTarget('//evil.example')).toBeNull();
    expect(breadcrumbTarget('https://example.com/a')).toEqual({ kind: 'external', href: 'https://example.com/a' });
  });

  it('names the landmark in the chosen language', async () => {
    await renderWidget(<Breadcrumb items={items} />, { language: 'id' });
    expect(screen.getByRole('navigation', { name: 'Jejak navigasi' })).toBeTruthy();
  });

  it('renders nothing for an empty trail', async () => {
    const { container } = await renderWidget(<Breadcrumb items={[]} />);
    expect(container.querySelector('nav')).toBeNull();
  });
});
