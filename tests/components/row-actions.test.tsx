import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RowActions } from '../../src/engine/widgets/row-actions.js';
import { renderWidget } from '../helpers/widgets-render.js';

describe('RowActions', () => {
  it('shows View Details, Edit and Delete in a labelled group, named after the row', async () => {
    await renderWidget(<RowActions recordLabel="Acme" view={{ to: '/manage-company/1' }} edit={{ to: '/manage-company/edit/1' }} onDelete={() => {}} />);
    const group = screen.getByRole('group', { name: 'Actions' });
    expect(within(group).getByRole('link', { name: 'View details of Acme' }).getAttribute('href')).toBe('/manage-company/1');
    expect(within(group).getByRole('link', { name: 'Edit Acme' }).getAttribute('href')).toBe('/manage-company/edit/1');
    expect(within(group).getByRole('button', { name: 'Delete Acme' })).toBeTruthy();
  });

  it('shows only the actions it is given', async () => {
    await renderWidget(<RowActions view={{ to: '/manage-contest/9' }} />);
    expect(screen.getByRole('link', { name: 'View Details' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('runs the handlers on click and on keyboard activation', async () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    const { user } = await renderWidget(<RowActions edit={{ onClick: onEdit }} onDelete={onDelete} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(onEdit).toHaveBeenCalledTimes(1);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete' }));
    await user.keyboard('{Enter}');
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  it('disables delete while it is in flight', async () => {
    const onDelete = vi.fn();
    const { user } = await renderWidget(<RowActions onDelete={onDelete} deleting />);
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.click(button);
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('speaks Malay and Indonesian', async () => {
    const { unmount } = await renderWidget(<RowActions recordLabel="Acme" onDelete={() => {}} />, { language: 'ms' });
    expect(screen.getByRole('button', { name: 'Padam Acme' })).toBeTruthy();
    unmount();
    await renderWidget(<RowActions edit={{ to: '/x' }} />, { language: 'id' });
    expect(screen.getByRole('link', { name: 'Ubah' })).toBeTruthy();
  });
});
