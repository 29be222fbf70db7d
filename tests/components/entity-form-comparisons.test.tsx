// The form engine shares its values and the descriptor's `comparisons` with the widgets, so the
// end-date calendar refuses days before the chosen start date, and a stale end < start is reported
// under end_date on submit (no browser needed: happy-dom).
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EntityForm } from '../../src/engine/form/entity-form.js';
import { type ClientEntity, loadEntities, toClientEntity } from '../../src/shared/descriptor/index.js';
import { FakeApi, renderWithApp } from './entity-harness.js';

/** A campaign-like fixture: a name and a date range whose end may not be before its start. */
function campaignFixture(): ClientEntity {
  const descriptor = {
    name: 'campaign',
    endpoint: 'campaigns',
    routes: { list: 'manage-campaign', create: 'create-campaign' },
    titleField: 'name',
    menu: { show: false },
    permissions: { list: ['admin'], read: ['admin'], create: ['admin'], update: ['admin'], delete: ['admin'] },
    list: { columns: [{ field: 'name' }] },
    forms: {
      create: { fields: ['name', 'start_date', 'end_date'], uiSchema: { start_date: { 'ui:widget': 'date' }, end_date: { 'ui:widget': 'date' } } },
      edit: { fields: ['name', 'start_date', 'end_date'], uiSchema: { start_date: { 'ui:widget': 'date' }, end_date: { 'ui:widget': 'date' } } },
    },
    messages: { name: { required: 'validation.name.required' } },
    comparisons: [{ field: 'end_date', operator: 'gte', other: 'start_date', message: 'validation.dateRange.endBeforeStart' }],
  };
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'campaign',
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      id: { type: 'integer', readOnly: true },
      name: { type: 'string', minLength: 2, maxLength: 100 },
      start_date: { type: ['string', 'null'], format: 'date' },
      end_date: { type: ['string', 'null'], format: 'date' },
      created_at: { type: 'string', format: 'date-time', readOnly: true },
      updated_at: { type: 'string', format: 'date-time', readOnly: true },
    },
  };
  const [entity] = loadEntities([{ file: 'fixture/campaign.json', descriptor, schemaFile: 'fixture/campaign.schema.json', schema }]);
  return toClientEntity(entity!, 'admin');
}

const campaign = campaignFixture();

function renderForm(props: Partial<Parameters<typeof EntityForm>[0]> = {}, language: 'en' | 'ms' = 'en') {
  const onSubmit = vi.fn();
  const view = renderWithApp(
    <EntityForm entity={campaign} mode="create" initialData={{}} saving={false} onSubmit={onSubmit} onCancel={() => undefined} {...props} />,
    { api: new FakeApi([campaign]), language },
  );
  return { onSubmit, view };
}

const day = (name: string) => screen.getByRole('button', { name });
const field = (name: RegExp) => screen.getByRole('combobox', { name });

/** The error text the field points at with aria-describedby. */
function errorOf(input: HTMLElement): string {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return ids
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join('')
    .trim();
}

afterEach(() => vi.useRealTimers());

describe('EntityForm with a date-range comparison', { timeout: 30_000 }, () => {
  it('disables the days before the chosen start date in the end-date calendar, and after the end in the start one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 0, 5, 12, 0));
    const { view } = renderForm();
    const { user } = await view;
    await user.click(await screen.findByRole('combobox', { name: /^Start Date/ }));
    await screen.findByRole('grid');
    // Before a start date is chosen nothing bounds the end.
    await user.click(day('Wednesday, 15 January 2025'));
    await waitFor(() => expect((field(/^Start Date/) as HTMLInputElement).value).toBe('15 Jan 2025'));
    await waitFor(() => expect(screen.queryByRole('grid')).toBeNull());

    await user.click(field(/^End Date/));
    await screen.findByRole('grid');
    expect(day('Tuesday, 14 January 2025').getAttribute('aria-disabled')).toBe('true');
    expect(day('Wednesday, 15 January 2025').getAttribute('aria-disabled')).toBeNull();
    await user.click(day('Tuesday, 14 January 2025'));
    expect((field(/^End Date/) as HTMLInputElement).value).toBe('');
    await user.click(day('Monday, 20 January 2025'));
    await waitFor(() => expect((field(/^End Date/) as HTMLInputElement).value).toBe('20 Jan 2025'));
    await waitFor(() => expect(screen.queryByRole('grid')).toBeNull());

    // The same rule seen from the start date: it may not move past the end.
    await user.click(field(/^Start Date/));
    await screen.findByRole('grid');
    expect(day('Tuesday, 21 January 2025').getAttribute('aria-disabled')).toBe('true');
    expect(day('Monday, 20 January 2025').getAttribute('aria-disabled')).toBeNull();
  });

  it('shows the comparison message under end_date when the end is before the start, and does not send', async () => {
    const { onSubmit, view } = renderForm({ mode: 'edit', initialData: { name: 'Summer Promo', start_date: '2025-03-10', end_date: '2025-03-01' } });
    const { user } = await view;
    await user.click(await screen.findByRole('button', { name: 'Update Campaign' }));
    await waitFor(() => expect(errorOf(field(/^End Date/))).toBe('End date cannot be before the start date'));
    expect(field(/^End Date/).getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(field(/^Start Date/))).toBe('');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends once the range is valid', async () => {
    const { onSubmit, view } = renderForm({ mode: 'edit', initialData: { name: 'Summer Promo', start_date: '2025-03-01', end_date: '2025-03-01' } });
    const { user } = await view;
    await user.click(await screen.findByRole('button', { name: 'Update Campaign' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ start_date: '2025-03-01', end_date: '2025-03-01' });
  });
});
