import { Theme } from '@radix-ui/themes';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DialogProvider } from '../../src/app/dialogs/dialog-provider.js';
import { i18n } from '../../src/app/i18n.js';
import { type DialogApi, type DialogOptions, useDialogs } from '../../src/engine/ui/dialog-context.js';

let api: DialogApi;

function Capture() {
  api = useDialogs();
  return null;
}

function setup() {
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <Theme>
        <DialogProvider>
          <Capture />
        </DialogProvider>
      </Theme>
    </I18nextProvider>,
  );
  return user;
}

/** Opens a dialog outside React's batch and returns its promise. */
function open<T>(call: () => Promise<T>): Promise<T> {
  let promise!: Promise<T>;
  act(() => {
    promise = call();
  });
  return promise;
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Whether a promise has settled, without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (
    (await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      Promise.resolve(marker),
    ])) !== marker
  );
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

afterEach(() => vi.restoreAllMocks());

describe('dialog service: alert', () => {
  it('shows one OK button and a close button by default, and resolves on OK', async () => {
    const user = setup();
    const result = open(() => api.alert({ title: 'Saved', description: 'All done.' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Saved')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
    const buttons = within(dialog)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(buttons.filter((text) => text === 'OK')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await expect(result).resolves.toBeUndefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('hides the close button when asked and uses the given confirm text', async () => {
    setup();
    void open(() => api.alert({ title: 'Note', confirmText: 'Understood', showCloseButton: false }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Understood' })).toBeTruthy();
  });

  it('resolves only after its action finishes, and even when the action fails', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = setup();
    const action = deferred();
    const result = open(() => api.alert({ title: 'Sync', onConfirm: () => action.promise }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(within(dialog).getByRole('button', { name: 'Loading...' }).hasAttribute('disabled')).toBe(true);
    expect(await settled(result)).toBe(false);
    await act(async () => action.reject(new Error('boom')));
    await expect(result).resolves.toBeUndefined();
    expect(errors).toHaveBeenCalledWith('Alert action failed', expect.any(Error));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('dialog service: confirm', () => {
  it('defaults to Yes and No', async () => {
    setup();
    void open(() => api.confirm({ title: 'Delete?' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Yes' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'No' })).toBeTruthy();
  });

  it('shows loading with both buttons disabled while the action runs, then closes and resolves true', async () => {
    const user = setup();
    const action = deferred();
    const onConfirm = vi.fn(() => action.promise);
    const result = open(() => api.confirm({ title: 'Delete?', confirmText: 'Delete', cancelText: 'Keep', onConfirm }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const loading = within(dialog).getAllByRole('button', { name: 'Loading...' });
    expect(loading).toHaveLength(2);
    expect(loading.every((button) => button.hasAttribute('disabled'))).toBe(true);
    expect(await settled(result)).toBe(false);
    await act(async () => action.resolve());
    await expect(result).resolves.toBe(true);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('stops loading and stays open when the action fails, resolving false', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = setup();
    const result = open(() => api.confirm({ title: 'Delete?', onConfirm: () => Promise.reject(new Error('server said no')) }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await expect(result).resolves.toBe(false);
    expect(errors).toHaveBeenCalledWith('Confirmation failed', expect.any(Error));
    const yes = await within(dialog).findByRole('button', { name: 'Yes' });
    expect(yes.hasAttribute('disabled')).toBe(false);
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('runs the cancel callback, closes and resolves false on No', async () => {
    const user = setup();
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    const result = open(() => api.confirm({ title: 'Leave?', onCancel, onConfirm }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await expect(result).resolves.toBe(false);
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('treats Escape as cancel', async () => {
    const user = setup();
    const onCancel = vi.fn();
    const result = open(() => api.confirm({ title: 'Leave?', onCancel }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await expect(result).resolves.toBe(false);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

describe('dialog service: custom', () => {
  it('renders the supplied content and footer, and resolves with the value given to close', async () => {
    const user = setup();
    const result = open(() =>
      api.custom({
        title: 'Pick',
        content: <p>Choose a colour</p>,
        footer: (close) => (
          <button type="button" onClick={() => close('blue')}>
            Blue
          </button>
        ),
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Choose a colour')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Blue' }));
    await expect(result).resolves.toBe('blue');
  });
});

describe('dialog service: sizes, ids and types', () => {
  it('uses md by default and the requested size otherwise', async () => {
    setup();
    void open(() => api.alert({ id: 'a', title: 'Default' }));
    void open(() => api.alert({ id: 'b', title: 'Wide', size: 'xl' }));
    await waitFor(() => expect(document.querySelectorAll('[data-dialog-id]')).toHaveLength(2));
    expect(document.querySelector('[data-dialog-id="a"]')!.getAttribute('data-size')).toBe('md');
    expect(document.querySelector('[data-dialog-id="b"]')!.getAttribute('data-size')).toBe('xl');
  });

  it('generates a time-based id when none is given, distinct for dialogs opened together', async () => {
    setup();
    const before = Date.now();
    void open(() => api.alert({ title: 'One' }));
    void open(() => api.alert({ title: 'Two' }));
    await waitFor(() => expect(document.querySelectorAll('[data-dialog-id]')).toHaveLength(2));
    const ids = [...document.querySelectorAll('[data-dialog-id]')].map((node) => node.getAttribute('data-dialog-id')!);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) {
      const [, time] = /^dialog-(\d+)-\d+$/.exec(id) ?? [];
      expect(Number(time)).toBeGreaterThanOrEqual(before);
      expect(Number(time)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('closes a dialog by id: a confirm resolves false, an alert resolves', async () => {
    setup();
    const confirmed = open(() => api.confirm({ id: 'ask', title: 'Sure?' }));
    const alerted = open(() => api.alert({ id: 'tell', title: 'Told' }));
    await waitFor(() => expect(document.querySelectorAll('[data-dialog-id]')).toHaveLength(2));
    act(() => api.close('ask'));
    await expect(confirmed).resolves.toBe(false);
    act(() => api.close('tell'));
    await expect(alerted).resolves.toBeUndefined();
    await waitFor(() => expect(document.querySelectorAll('[data-dialog-id]')).toHaveLength(0));
  });

  it('opens each kind through open() and rejects an unknown type without opening anything', async () => {
    setup();
    const result = open(() => api.open({ type: 'confirm', id: 'via-open', title: 'Via open' }));
    await screen.findByRole('dialog');
    act(() => api.close('via-open'));
    await expect(result).resolves.toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const unknown = { type: 'prompt', title: 'Nope' } as unknown as DialogOptions;
    await expect(api.open(unknown)).rejects.toThrow('Unknown dialog type: prompt');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('throws when used outside a DialogProvider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Capture />)).toThrow('useDialogs() needs a <DialogProvider> above it.');
  });
});
