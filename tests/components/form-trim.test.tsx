import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EntityForm } from '../../src/engine/form/entity-form.js';
import { normalizeFormData } from '../../src/engine/form/form-schema.js';
import type { ClientEntity } from '../../src/shared/descriptor/index.js';
import { clientEntities, entitySources, FakeApi, renderWithApp } from './entity-harness.js';

const [category, customer] = clientEntities(entitySources(['category', 'customer'])) as [ClientEntity, ClientEntity];

function renderForm(entity: ClientEntity, mode: 'create' | 'edit', initialData: Record<string, unknown> = {}, language: 'en' | 'id' | 'ms' = 'en') {
  const onSubmit = vi.fn();
  const view = renderWithApp(
    <EntityForm entity={entity} mode={mode} initialData={initialData} saving={false} onSubmit={onSubmit} onCancel={() => undefined} />,
    { api: new FakeApi([entity]), language },
  );
  return { onSubmit, view };
}

describe('form trimming', { timeout: 30_000 }, () => {
  it('sends a password with surrounding spaces exactly as typed, and trims the other text fields', async () => {
    const { onSubmit, view } = renderForm(customer, 'create');
    const { user } = await view;
    await user.type(await screen.findByLabelText(/^Email Address/), '  ana@agency.test  ');
    await user.type(screen.getByLabelText(/^Password/), '  secret 1 ');
    await user.type(screen.getByLabelText(/^Confirm Password/), '  secret 1 ');
    await user.type(screen.getByLabelText(/^Max Entries/), '5');
    await user.click(screen.getByRole('button', { name: 'Create Customer' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      email: 'ana@agency.test',
      password: '  secret 1 ',
      password_confirmation: '  secret 1 ',
      max_entries: 5,
    });
  });

  it("checks a password's length on what was typed, spaces included", async () => {
    const { onSubmit, view } = renderForm(customer, 'create');
    const { user } = await view;
    await user.type(await screen.findByLabelText(/^Email Address/), 'ana@agency.test');
    await user.type(screen.getByLabelText(/^Password/), ' abcd ');
    await user.type(screen.getByLabelText(/^Confirm Password/), ' abcd ');
    await user.type(screen.getByLabelText(/^Max Entries/), '5');
    await user.click(screen.getByRole('button', { name: 'Create Customer' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Password must be at least 6 characters')).toBeNull();
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ password: ' abcd ' });
  });

  it('still counts a password of spaces only as missing', () => {
    expect(normalizeFormData({ password: '   ', name: ' x ' }, customer.createSchema)).toEqual({ name: 'x' });
    expect(normalizeFormData({ password: ' p ', name: ' x ' }, customer.createSchema)).toEqual({ password: ' p ', name: 'x' });
  });

  it("still trims ordinary text: a name of spaces is 'Name is required'", async () => {
    const { onSubmit, view } = renderForm(category, 'create');
    const { user } = await view;
    await user.type(await screen.findByLabelText(/^Name/), '   ');
    await user.type(screen.getByLabelText(/^Description/), 'A description long enough.');
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    [
      'en',
      'Update Customer',
      [
        'Name must be less than 100 characters',
        'Phone must be less than 20 characters',
        'Company must be less than 100 characters',
        'Job title must be less than 100 characters',
      ],
    ],
    [
      'id',
      'Perbarui Peserta',
      [
        'Nama harus kurang dari 100 karakter',
        'Telepon harus kurang dari 20 karakter',
        'Perusahaan harus kurang dari 100 karakter',
        'Jabatan harus kurang dari 100 karakter',
      ],
    ],
    [
      'ms',
      'Kemas Kini Peserta',
      [
        'Nama mestilah kurang daripada 100 aksara',
        'Telefon mestilah kurang daripada 20 aksara',
        'Syarikat mestilah kurang daripada 100 aksara',
        'Jawatan mestilah kurang daripada 100 aksara',
      ],
    ],
  ] as const)('shows the edit rules of the optional customer fields in %s and does not send', async (language, submit, messages) => {
    const tooLong = {
      name: 'n'.repeat(101),
      email: 'ana@agency.test',
      phone: '1'.repeat(21),
      company: 'c'.repeat(101),
      job_title: 'j'.repeat(101),
      is_active: true,
    };
    const { onSubmit, view } = renderForm(customer, 'edit', tooLong, language);
    const { user } = await view;
    await user.click(await screen.findByRole('button', { name: submit }));
    for (const message of messages) expect(await screen.findByText(message)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
