import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../src/app/i18n.js';
import { EntityForm } from '../../src/engine/form/entity-form.js';
import type { ClientEntity } from '../../src/shared/descriptor/index.js';
import { clientEntities, entitySources, FakeApi, renderWithApp } from './entity-harness.js';

const [category, company] = clientEntities() as [ClientEntity, ClientEntity];

function renderForm(entity: ClientEntity, props: Partial<Parameters<typeof EntityForm>[0]> = {}, language: 'en' | 'ms' | 'id' = 'en') {
  const onSubmit = vi.fn();
  const view = renderWithApp(
    <EntityForm entity={entity} mode="create" initialData={{}} saving={false} onSubmit={onSubmit} onCancel={() => undefined} {...props} />,
    { api: new FakeApi([entity]), language },
  );
  return { onSubmit, view };
}

/** The error text the widget of `label` points at with aria-describedby. */
function errorOf(label: string | RegExp): string {
  const input = screen.getByLabelText(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return ids
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join('')
    .trim();
}

describe('EntityForm', { timeout: 30_000 }, () => {
  it('renders the descriptor fields with their labels and the schema default', async () => {
    renderForm(category);
    expect(await screen.findByLabelText(/^Name/)).toBeTruthy();
    expect(screen.getByLabelText(/^Description/).tagName).toBe('TEXTAREA');
    expect((screen.getByRole('radio', { name: 'Active' }) as HTMLButtonElement).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('button', { name: 'Create Category' })).toBeTruthy();
  });

  it("shows the server's own messages under the fields on submit and does not send", async () => {
    const { onSubmit, view } = renderForm(category);
    const { user } = await view;
    await user.click(await screen.findByRole('button', { name: 'Create Category' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(errorOf(/^Name/)).toBe('Name is required');
    expect(errorOf(/^Description/)).toBe('Description is required');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('treats a name of spaces as missing, checks lengths, and revalidates as the user types', async () => {
    const { onSubmit, view } = renderForm(category);
    const { user } = await view;
    await user.type(await screen.findByLabelText(/^Name/), '   ');
    await user.type(screen.getByLabelText(/^Description/), 'short');
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(errorOf(/^Description/)).toBe('Description must be at least 10 characters');
    await user.type(screen.getByLabelText(/^Name/), 'A');
    await waitFor(() => expect(errorOf(/^Name/)).toBe('Name must be at least 2 characters'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends only the form fields, trimmed', async () => {
    const { onSubmit, view } = renderForm(category);
    const { user } = await view;
    await user.type(await screen.findByLabelText(/^Name/), '  Best Campaign ');
    await user.type(screen.getByLabelText(/^Description/), 'For the most effective campaign.');
    await user.click(screen.getByRole('radio', { name: 'Inactive' }));
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ name: 'Best Campaign', description: 'For the most effective campaign.', status: 'inactive' });
  });

  it('puts server field errors under their fields until the field changes', async () => {
    const serverErrors = [
      { path: 'name', keyword: 'unique', messageKey: 'validation.unique', params: {} },
      { path: 'description', keyword: 'maxLength', messageKey: 'validation.description.max', params: { limit: 500 } },
    ];
    const { view } = renderForm(category, { initialData: { name: 'Taken', description: 'A description long enough' }, serverErrors });
    const { user } = await view;
    await screen.findByText('This value is already in use');
    expect(errorOf(/^Name/)).toBe('This value is already in use');
    expect(errorOf(/^Description/)).toBe('Description must be less than 500 characters');
    expect(screen.getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText(/^Name/), 'x');
    await waitFor(() => expect(screen.queryByText('This value is already in use')).toBeNull());
    expect(errorOf(/^Description/)).toBe('Description must be less than 500 characters');
  });

  it('hands server errors that fit no field to the screen', async () => {
    const onUnplacedErrors = vi.fn();
    renderForm(category, { serverErrors: [{ path: 'slug', keyword: 'unique', messageKey: 'validation.unique', params: {} }], onUnplacedErrors });
    await waitFor(() => expect(onUnplacedErrors).toHaveBeenCalledWith(['This value is already in use']));
  });

  it("says 'Creating...' while saving and disables the buttons", async () => {
    renderForm(category, { saving: true });
    const button = await screen.findByRole('button', { name: 'Creating...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says 'Updating...' while saving an edit", async () => {
    renderForm(company, { mode: 'edit', saving: true, initialData: { name: 'Acme', is_active: true } });
    expect(await screen.findByRole('button', { name: 'Updating...' })).toBeTruthy();
  });

  it('maps the Active Status switch to true/false for is_active', async () => {
    const { onSubmit, view } = renderForm(company, { mode: 'edit', initialData: { name: 'Acme', is_active: true } });
    const { user } = await view;
    const toggle = await screen.findByRole('switch', { name: /Active Status/ });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Update Company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Acme', is_active: false }));
  });

  it('maps the Active Status switch to active/inactive for a status', async () => {
    const { onSubmit, view } = renderForm(category, {
      mode: 'edit',
      initialData: { name: 'Film', description: 'Moving pictures of all kinds', status: 'inactive' },
    });
    const { user } = await view;
    const toggle = await screen.findByRole('switch', { name: /Active Status/ });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Update Category' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Film', description: 'Moving pictures of all kinds', status: 'active' }));
  });

  it('uses the company messages and shows them in Malay after switching language', async () => {
    const { view } = renderForm(company);
    const { user } = await view;
    await user.click(await screen.findByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('Company name is required')).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage('ms');
    });
    expect(await screen.findByText(i18n.t('validation.company_name.required', { lng: 'ms' }))).toBeTruthy();
    expect(screen.queryByText('Company name is required')).toBeNull();
    expect(i18n.t('validation.company_name.required', { lng: 'ms' })).not.toBe('Company name is required');
  });

  it('keeps what the user typed when the language changes', async () => {
    const { view } = renderForm(category);
    await view;
    const name = await screen.findByLabelText(/^Name/);
    await (await view).user.type(name, 'Poster');
    await act(async () => {
      await i18n.changeLanguage('id');
    });
    expect(((await screen.findByLabelText(/^Nama/)) as HTMLInputElement).value).toBe('Poster');
    await act(async () => {
      await i18n.changeLanguage('en');
    });
  });

  it('shows a field added to the schema and the descriptor form', async () => {
    const sources = entitySources(['category'], ({ descriptor, schema }) => {
      schema.properties.jury_note = { type: 'string', maxLength: 200 };
      descriptor.forms.create.fields.push('jury_note');
    });
    const [extended] = clientEntities(sources) as [ClientEntity];
    const { onSubmit, view } = renderForm(extended);
    const { user } = await view;
    const input = await screen.findByLabelText('Jury note');
    await user.type(screen.getByLabelText(/^Name/), 'Print');
    await user.type(screen.getByLabelText(/^Description/), 'Printed advertising work');
    await user.type(input, 'Shortlist only');
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ jury_note: 'Shortlist only' })));
  });
});
