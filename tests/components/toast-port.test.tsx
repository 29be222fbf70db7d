import { screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { EntityRoutes } from '../../src/engine/routes/entity-routes.js';
import { type ToastApi, ToastContext } from '../../src/engine/ui/toast-context.js';
import { clientEntities, FakeApi, renderWithApp } from './entity-harness.js';

/** A toast service that records what the engine asks it to show. */
function recordingToasts() {
  const shown: Array<{ kind: string; message: ReactNode }> = [];
  const show = (kind: string) => (message: ReactNode) => shown.push({ kind, message });
  const api: ToastApi = { success: show('success'), error: show('error'), info: show('info'), warning: show('warning'), dismiss: () => undefined };
  return { api, shown };
}

describe('the engine toasts through the toast port', { timeout: 30_000 }, () => {
  it('tells whatever service the shell provides that a create succeeded, or why a save failed', async () => {
    const toasts = recordingToasts();
    const api = new FakeApi(clientEntities());
    const ui = (
      <ToastContext.Provider value={toasts.api}>
        <EntityRoutes fallback={<p>No such page</p>} />
      </ToastContext.Provider>
    );
    const { user, router } = await renderWithApp(ui, { api, path: '/create-company' });
    await user.type(await screen.findByLabelText(/^Name/), 'Acme Advertising');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    // Generous waits: on a busy 2-core machine validation and the save can take over a second.
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-company'), { timeout: 10_000 });
    expect(toasts.shown).toEqual([{ kind: 'success', message: 'Company created successfully!' }]);
    // The list on screen, the create form gone: navigating back before that committed would find
    // the same form still mounted (the route change renders as a transition), its save already done.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Create Company' })).toBeNull(), { timeout: 10_000 });

    api.override = (call) => (call.method === 'POST' ? { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'boom' } } : undefined);
    await router.navigate('/create-company');
    await user.type(await screen.findByLabelText(/^Name/), 'Second Agency');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    await waitFor(() => expect(toasts.shown).toHaveLength(2), { timeout: 10_000 });
    expect(toasts.shown[1]!.kind).toBe('error');
    expect(router.state.location.pathname).toBe('/create-company');
  });
});
