import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../src/app/auth/auth-context.js';
import { connectHttpClient, tokenStore } from '../../src/app/auth/session.js';
import { TOKEN_KEYS } from '../../src/app/auth/token-store.js';
import { i18n } from '../../src/app/i18n.js';
import { validateLogin } from '../../src/app/pages/login-page.js';
import { routes } from '../../src/app/router.js';
import { configureHttpClient } from '../../src/engine/data/http-client.js';
import type { AuthUser } from '../../src/shared/api-contract.js';
import { type FakeHandler, fakeFetch } from '../helpers/fake-api.js';
import { TEST_ADMIN } from '../helpers/test-users.js';

const admin = TEST_ADMIN;

type Handler = FakeHandler;
let handler: Handler;

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <I18nextProvider i18n={i18n}>
      <AuthProvider>
        <RouterProvider router={router} />
        <ToastContainer />
      </AuthProvider>
    </I18nextProvider>,
  );
  return router;
}

function signedInAs(user: AuthUser) {
  sessionStorage.setItem(TOKEN_KEYS.token, 'a.b.c');
  sessionStorage.setItem(TOKEN_KEYS.refreshToken, 'refresh');
  sessionStorage.setItem(TOKEN_KEYS.expiresAt, String(Date.now() + 3_600_000));
  localStorage.setItem(TOKEN_KEYS.user, JSON.stringify(user));
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
  connectHttpClient();
  // Warm the lazily loaded screens, so each test measures the app rather than the first import.
  await Promise.all([
    import('../../src/app/pages/login-page.js'),
    import('../../src/app/pages/logout-page.js'),
    import('../../src/app/pages/forbidden-page.js'),
    import('../../src/app/pages/faq-page.js'),
    import('../../src/app/pages/dashboard-page.js'),
    import('../../src/features/judging/client/dashboard-panels.js'),
    import('../../src/app/pages/profile-page.js'),
    import('../../src/app/pages/fallback-page.js'),
    import('../../src/app/pages/authorizer-page.js'),
    import('../../src/app/layout/authenticated-layout.js'),
    import('../../src/engine/routes/entity-routes.js'),
  ]);
}, 60_000);

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  handler = () => ({ status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'Not found' } });
  configureHttpClient({ fetch: fakeFetch(() => handler) });
});

afterEach(() => {
  tokenStore.stop();
  vi.restoreAllMocks();
});

describe('login validation', () => {
  it('trims the e-mail, requires both fields and a simple e-mail pattern', () => {
    expect(validateLogin('', '')).toEqual({ email: 'validation.email.required', password: 'validation.password.required' });
    expect(validateLogin('   ', 'x')).toEqual({ email: 'validation.email.required' });
    expect(validateLogin('ada@', 'x')).toEqual({ email: 'validation.email.invalid' });
    expect(validateLogin('  ada@example.com ', 'x')).toEqual({});
  });
});

describe('app shell routes', { timeout: 30_000 }, () => {
  it('sends a signed-out visitor to the login page and back to the page first asked for', async () => {
    const user = userEvent.setup();
    handler = (url, init) => {
      if (url === '/api/login') {
        expect(JSON.parse(String(init.body))).toEqual({ email: 'admin@example.com', password: 'secret-pass' });
        return { status: 200, body: { token: 'x.y.z', expiresIn: 3600, refreshToken: 'r1', data: admin } };
      }
      return { status: 404 };
    };
    const router = renderAt('/faq');
    await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/login');

    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();

    await user.type(screen.getByLabelText('Email'), ' admin@example.com ');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await screen.findByRole('heading', { name: 'FAQ' }, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/faq');
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBe('x.y.z');
    expect(await screen.findByText('Login successful!')).toBeTruthy();
  });

  it("shows the server's verdict on wrong credentials as a translated toast", async () => {
    const user = userEvent.setup();
    handler = () => ({ status: 401, body: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Invalid email or password.' } });
    renderAt('/login');
    await user.type(await screen.findByLabelText('Email', {}, { timeout: 10_000 }), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('The e-mail address or password is incorrect.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBeNull();
  });

  it('sends a signed-in user whose role is not allowed to /403', async () => {
    signedInAs({ ...admin, role: 'user' });
    const router = renderAt('/dashboard');
    await screen.findByRole('heading', { name: 'Access Forbidden' }, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/403');
  });

  it('sends / to the dashboard, and /logout without the flag back to the dashboard while signed in', async () => {
    signedInAs(admin);
    const router = renderAt('/');
    await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/dashboard');
    await act(() => router.navigate('/logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it("shows 'You have been logged out' when a call answers SESSION_REPLACED", async () => {
    signedInAs(admin);
    handler = (url) =>
      url === '/api/auth/me' ? { status: 401, body: { statusCode: 401, code: 'SESSION_REPLACED', message: 'Signed in elsewhere' } } : { status: 404 };
    const router = renderAt('/profile');
    await screen.findByRole('heading', { name: 'You have been logged out' }, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/logout');
    expect(screen.getByText(/not logged in on another browser or device/)).toBeTruthy();
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBeNull();
  });

  it('shows a titled placeholder for a spec route whose screen has not arrived, and 404 otherwise', async () => {
    signedInAs(admin);
    handler = (url) => (url === '/api/meta/entities' ? { status: 200, body: { data: [] } } : { status: 404 });
    const router = renderAt('/manage-applicant');
    await screen.findByRole('heading', { name: 'Manage Applicant' }, { timeout: 10_000 });
    // The title is set by an effect after the heading renders: on a loaded machine, a moment later.
    await waitFor(() => expect(document.title).toBe('Manage Applicant | Awards CMS'), { timeout: 10_000 });
    await act(() => router.navigate('/nowhere'));
    await screen.findByRole('heading', { name: "Looks like you're lost" }, { timeout: 10_000 });
  });

  it('validates a callback token with /api/auth/check before storing it: role user goes to /profile', async () => {
    const checked: string[] = [];
    handler = (url, init) => {
      if (url === '/api/auth/check') {
        checked.push((init.headers as Record<string, string>).authorization ?? '');
        return { status: 200, body: { data: { ...admin, role: 'user' } } };
      }
      if (url === '/api/auth/me') return { status: 200, body: { data: { ...admin, role: 'user' } } };
      return { status: 404 };
    };
    const router = renderAt('/authorizer?token=h.p.s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'), { timeout: 10_000 });
    expect(checked).toEqual(['Bearer h.p.s']);
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBe('h.p.s');
  });

  it('sends an invalid callback token to /login with a message, storing nothing', async () => {
    handler = () => ({ status: 401, body: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Invalid token' } });
    const router = renderAt('/authorizer?token=bad');
    await screen.findByText('Error: User is not authenticated (UNAUTHENTICATED)', {}, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBeNull();
  });
});
