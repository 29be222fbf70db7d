import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type LoadOptions, SearchableSelect, type SelectOption } from '../../src/engine/widgets/searchable-select.js';
import { renderWidget } from '../helpers/widgets-render.js';

const fruits: SelectOption[] = [
  { value: 'apple', label: 'Apple', description: 'Crisp and sweet' },
  { value: 'banana', label: 'Banana' },
  { value: 'cherry', label: 'Cherry', description: 'Small and red' },
];

type Props = Partial<React.ComponentProps<typeof SearchableSelect>>;
function Harness({ initial, ...props }: Props & { initial?: string | number }) {
  const [value, setValue] = useState<string | number | undefined>(initial);
  return (
    <SearchableSelect
      label="Fruit"
      value={value}
      {...props}
      onChange={(next, option) => {
        setValue(next);
        props.onChange?.(next, option);
      }}
    />
  );
}

const trigger = () => screen.getByRole('button', { name: /^Fruit: / });
const activeOption = () => document.getElementById(screen.getByRole('combobox').getAttribute('aria-activedescendant') ?? '');

async function setup(props: Props & { initial?: string | number } = {}, language: 'en' | 'id' | 'ms' = 'en') {
  const onChange = vi.fn();
  const rendered = await renderWidget(<Harness options={fruits} {...props} onChange={onChange} />, { language });
  return { ...rendered, onChange };
}

/** A server of `total` rows named 'Customer N', searched by substring, `perPage` at a time. */
function fakeServer(total: number, perPage = 20, delay = 0) {
  const rows = Array.from({ length: total }, (_, i) => ({ value: i + 1, label: `Customer ${i + 1}` }));
  const calls: { search: string; page: number; signal: AbortSignal }[] = [];
  const loadOptions: LoadOptions = vi.fn(async (search, signal, page) => {
    calls.push({ search, page, signal });
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    const matches = rows.filter((r) => r.label.toLowerCase().includes(search.toLowerCase()));
    return { options: matches.slice((page - 1) * perPage, page * perPage), hasMore: page * perPage < matches.length };
  });
  return { loadOptions, calls };
}

describe('SearchableSelect', () => {
  it('shows Select One until something is chosen', async () => {
    await setup();
    expect(trigger().textContent).toBe('Select One');
    expect(trigger().getAttribute('aria-label')).toBe('Fruit: Select One');
  });

  it('opens a focused Find option search over labels and descriptions', async () => {
    const { user } = await setup();
    await user.click(trigger());
    const search = await screen.findByPlaceholderText('Find option');
    await waitFor(() => expect(document.activeElement).toBe(search));
    expect(screen.getByRole('option', { name: 'Apple Crisp and sweet' })).toBeTruthy();
    expect(screen.getAllByRole('option')).toHaveLength(3);
  });

  it('filters locally in any case and says No data found when nothing matches', async () => {
    const { user } = await setup();
    await user.click(trigger());
    await user.type(await screen.findByRole('combobox'), 'RED');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['CherrySmall and red']);
    await user.type(screen.getByRole('combobox'), 'xx');
    expect(screen.queryByRole('option')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('No data found');
  });

  it('wraps with the arrows, selects with Enter and returns focus to the button', async () => {
    const { user, onChange } = await setup();
    await user.click(trigger());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox')));
    expect(activeOption()?.textContent).toContain('Apple');
    await user.keyboard('{ArrowUp}');
    expect(activeOption()?.textContent).toContain('Cherry');
    await user.keyboard('{ArrowDown}');
    expect(activeOption()?.textContent).toContain('Apple');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledWith('banana', { value: 'banana', label: 'Banana' });
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(trigger().getAttribute('aria-label')).toBe('Fruit: Banana');
    await waitFor(() => expect(document.activeElement).toBe(trigger()));
  });

  it('closes with Escape without choosing', async () => {
    const { user, onChange } = await setup({ initial: 'cherry' });
    await user.click(trigger());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox')));
    expect(screen.getByRole('option', { name: 'Cherry Small and red' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(onChange).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(trigger()));
  });

  it('searches on the server as the user types: debounced, stale requests aborted', async () => {
    const server = fakeServer(100_000);
    const { user } = await setup({ options: undefined, loadOptions: server.loadOptions });
    await user.click(trigger());
    await screen.findByRole('option', { name: 'Customer 1' });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ search: '', page: 1 });
    expect(screen.getAllByRole('option')).toHaveLength(20);

    await user.type(screen.getByRole('combobox'), '9999');
    expect(server.calls).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    await screen.findByRole('option', { name: 'Customer 9999' });
    expect(server.calls.map((c) => c.search)).toEqual(['', '9999']);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Customer 9999',
      'Customer 19999',
      'Customer 29999',
      'Customer 39999',
      'Customer 49999',
      'Customer 59999',
      'Customer 69999',
      'Customer 79999',
      'Customer 89999',
      'Customer 99990',
      'Customer 99991',
      'Customer 99992',
      'Customer 99993',
      'Customer 99994',
      'Customer 99995',
      'Customer 99996',
      'Customer 99997',
      'Customer 99998',
      'Customer 99999',
    ]);
  });

  it('cancels a slow stale request so its answer never replaces the newer one', async () => {
    const server = fakeServer(50, 20, 400);
    const { user } = await setup({ options: undefined, loadOptions: server.loadOptions });
    await user.click(trigger());
    await user.type(await screen.findByRole('combobox'), '7');
    await waitFor(() => expect(server.calls.map((c) => c.search)).toEqual(['', '7']), { timeout: 2000 });
    await user.type(screen.getByRole('combobox'), '{Backspace}4');
    await waitFor(() => expect(server.calls.at(-1)?.search).toBe('4'), { timeout: 2000 });
    expect(server.calls[1]!.signal.aborted).toBe(true);
    await screen.findByRole('option', { name: 'Customer 4' }, { timeout: 2000 });
    expect(screen.queryByRole('option', { name: 'Customer 7' })).toBeNull();
  });

  it('pages through results when scrolled to the end or arrowed past the last option', async () => {
    const server = fakeServer(45);
    const { user } = await setup({ options: undefined, loadOptions: server.loadOptions });
    await user.click(trigger());
    await screen.findByRole('option', { name: 'Customer 20' });
    fireEvent.scroll(screen.getByRole('listbox'));
    await screen.findByRole('option', { name: 'Customer 40' });
    expect(server.calls.map((c) => c.page)).toEqual([1, 2]);
    await user.keyboard('{ArrowUp}');
    expect(activeOption()?.textContent).toBe('Customer 40');
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('option', { name: 'Customer 45' });
    expect(server.calls.map((c) => c.page)).toEqual([1, 2, 3]);
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(activeOption()?.textContent).toBe('Customer 1');
  });

  it('shows the label of a saved value it has not loaded', async () => {
    const resolveOption = vi.fn(async (value: string | number) => ({ value, label: `Customer ${value}` }));
    await setup({ initial: 4242, options: undefined, loadOptions: fakeServer(10).loadOptions, resolveOption });
    await waitFor(() => expect(trigger().getAttribute('aria-label')).toBe('Fruit: Customer 4242'));
    expect(resolveOption).toHaveBeenCalledTimes(1);
  });

  it('offers Retry when loading fails', async () => {
    let fail = true;
    const loadOptions: LoadOptions = async () => {
      if (fail) throw new Error('down');
      return { options: [{ value: 1, label: 'Back again' }] };
    };
    const { user } = await setup({ options: undefined, loadOptions });
    await user.click(trigger());
    expect(await screen.findByText('Could not load the options.')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('option', { name: 'Back again' })).toBeTruthy();
  });

  it('clears the choice when clearable', async () => {
    const { user, onChange } = await setup({ initial: 'apple', clearable: true });
    expect(trigger().textContent).toBe('Apple');
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(onChange).toHaveBeenCalledWith(undefined, undefined);
    expect(trigger().textContent).toBe('Select One');
  });

  it('does not open when disabled', async () => {
    const { user } = await setup({ disabled: true });
    await user.click(trigger());
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('speaks Indonesian and Malay', async () => {
    const { user, unmount } = await setup({}, 'id');
    expect(trigger().textContent).toBe('Pilih Satu');
    await user.click(trigger());
    await user.type(await screen.findByPlaceholderText('Cari opsi'), 'zzz');
    expect(screen.getByRole('status').textContent).toBe('Data tidak ditemukan');
    unmount();
    const ms = await setup({}, 'ms');
    await ms.user.click(trigger());
    await ms.user.type(await screen.findByPlaceholderText('Cari pilihan'), 'zzz');
    expect(screen.getByRole('status').textContent).toBe('Tiada data ditemui');
  });
});

describe('the searchable and reference select as RJSF widgets', { timeout: 30_000 }, () => {
  async function renderForm(schema: RJSFSchema, uiSchema: UiSchema, initial: Record<string, unknown> = {}) {
    // withTheme by its own module, as the engine imports it (@rjsf/core's index needs a validator the console does not ship).
    const { default: withTheme } = await import('@rjsf/core/lib/withTheme.js');
    const { templates, widgets } = await import('../../src/engine/rjsf-radix/index.js');
    const { createFormValidator } = await import('../../src/engine/form/schema-validator.js');
    const { FakeApi, clientEntities, renderWithApp } = await import('./entity-harness.js');
    const Form = withTheme({ widgets, templates });
    const api = new FakeApi(clientEntities());
    api.seed(
      'categories',
      Array.from({ length: 45 }, (_, i) => ({ name: `Category ${i + 1}`, slug: `category-${i + 1}` })),
    );
    // The fake list endpoint searches names as the real one does.
    api.override = (call) => {
      if (call.method !== 'GET' || call.path !== '/categories') return undefined;
      const search = (call.query.get('search') ?? '').toLowerCase();
      const perPage = Number(call.query.get('per_page'));
      const page = Number(call.query.get('page'));
      const rows = api.rows.get('categories')!.filter((r) => String(r.name).toLowerCase().includes(search));
      return {
        status: 200,
        body: {
          data: rows.slice((page - 1) * perPage, page * perPage),
          meta: { current_page: page, last_page: Math.max(1, Math.ceil(rows.length / perPage)), total: rows.length, per_page: perPage },
        },
      };
    };
    const state = { data: initial };
    function Host() {
      const [formData, setFormData] = useState(initial);
      return (
        <Form
          schema={schema}
          uiSchema={uiSchema}
          validator={createFormValidator()}
          formData={formData}
          onChange={(e) => {
            state.data = e.formData;
            setFormData(e.formData);
          }}
        >
          <span />
        </Form>
      );
    }
    const rendered = await renderWithApp(<Host />, { api });
    return { ...rendered, api, state };
  }

  it('picks an enum through the searchable select', async () => {
    const { user, state } = await renderForm(
      { type: 'object', properties: { kind: { type: 'string', title: 'Kind', enum: ['film', 'print'] } } },
      { kind: { 'ui:widget': 'searchable-select', 'ui:enumNames': ['Film', 'Print'] } },
    );
    await user.click(screen.getByRole('button', { name: 'Kind: Select One' }));
    await user.type(await screen.findByRole('combobox'), 'pri');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(state.data).toEqual({ kind: 'print' }));
  });

  it('picks a reference from the entity’s list endpoint, searched on the server page by page', async () => {
    const { user, state, api } = await renderForm(
      { type: 'object', properties: { category_id: { type: 'integer', title: 'Category' } } },
      { category_id: { 'ui:widget': 'searchable-select', 'ui:options': { entity: 'category', descriptionField: 'slug' } } },
      { category_id: 7 },
    );
    const trigger = await screen.findByRole('button', { name: 'Category: Category 7' }, { timeout: 10_000 });
    expect(api.callsTo('GET', '/categories/7')).toHaveLength(1);
    await user.click(trigger);
    await screen.findByRole('option', { name: 'Category 1 category-1' });
    const first = api.callsTo('GET', '/categories').find((c) => c.path === '/categories')!;
    expect(Object.fromEntries(first.query)).toEqual({ page: '1', per_page: '20' });
    await user.type(screen.getByRole('combobox'), '42');
    // The answer to '42' itself, with its first option active: 'Category 42' is already among the
    // answers to '4', where Enter (no option active while the next answer is awaited) chooses nothing.
    await waitFor(() => {
      expect(screen.getAllByRole('option')[0]).toBe(screen.getByRole('option', { name: 'Category 42 category-42' }));
      expect(screen.getByRole('combobox').getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[0]!.id);
    });
    const last = api
      .callsTo('GET', '/categories')
      .filter((c) => c.path === '/categories')
      .at(-1)!;
    expect(Object.fromEntries(last.query)).toEqual({ search: '42', page: '1', per_page: '20' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(state.data).toEqual({ category_id: 42 }));
  });
});
