import { screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { EntityRoutes } from '../../src/engine/routes/entity-routes.js';
import { ToastContext, type ToastApi } from '../../src/engine/ui/toast-context.js';
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
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-company'));
    expect(toasts.shown).toEqual([{ kind: 'success', message: 'Company created successfully!' }]);

    api.override = (call) => (call.method === 'POST' ? { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'boom' } } : undefined);
    await router.navigate('/create-company');
    await user.type(await screen.findByLabelText(/^Name/), 'Second Agency');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    await waitFor(() => expect(toasts.shown).toHaveLength(2));
    expect(toasts.shown[1]!.kind).toBe('error');
    expect(router.state.location.pathname).toBe('/create-company');
  });
});
