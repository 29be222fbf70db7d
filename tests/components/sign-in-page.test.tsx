import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../src/app/auth/auth-context.js';
import { connectHttpClient, tokenStore } from '../../src/app/auth/session.js';
import { TOKEN_KEYS } from '../../src/app/auth/token-store.js';
import { i18n } from '../../src/app/i18n.js';
import { DocumentLink, type PageNavigation, PageNavigationContext } from '../../src/app/page-navigation.js';
import { LoginPage } from '../../src/app/pages/login-page.js';
import { configureHttpClient } from '../../src/engine/data/http-client.js';
import type { AuthUser } from '../../src/shared/api-contract.js';
import { type FakeHandler, fakeFetch } from '../helpers/fake-api.js';
import { TEST_ADMIN } from '../helpers/test-users.js';

// The sign-in page as a page load of /login runs it (src/app/sign-in-start.tsx): without the
// router, moving on through its own navigation (src/app/page-navigation.tsx).

type Handler = FakeHandler;
let handler: Handler;

function renderAlone(state: unknown = null) {
  const goOn = vi.fn<PageNavigation['goOn']>();
  const redirects: string[] = [];
  const navigation: PageNavigation = {
    state,
    goOn,
    Redirect: ({ to }) => {
      redirects.push(to);
      return null;
    },
    Link: DocumentLink,
  };
  render(
    <I18nextProvider i18n={i18n}>
      <AuthProvider>
        <PageNavigationContext.Provider value={navigation}>
          <LoginPage />
        </PageNavigationContext.Provider>
        <ToastContainer />
      </AuthProvider>
    </I18nextProvider>,
  );
  return { goOn, redirects };
}

function answerSignIn(user: AuthUser) {
  handler = (url) => (url === '/api/login' ? { status: 200, body: { token: 'x.y.z', expiresIn: 3600, refreshToken: 'r1', data: user } } : { status: 404 });
}

async function signInThroughForm() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), 'someone@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
  connectHttpClient();
});

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  handler = () => ({ status: 404 });
  configureHttpClient({ fetch: fakeFetch(() => handler) });
});

afterEach(() => {
  tokenStore.stop();
  vi.restoreAllMocks();
});

describe('the sign-in page without the router', { timeout: 30_000 }, () => {
  it("goes on to the role's home with the success toast, its links plain links", async () => {
    answerSignIn({ ...TEST_ADMIN, role: 'juror' });
    const { goOn } = renderAlone();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy-policy');
    await signInThroughForm();
    await vi.waitFor(() => expect(goOn).toHaveBeenCalled());
    // The juror's home is the accounts feature's declaration (the registry is part of that page's load).
    expect(goOn).toHaveBeenLastCalledWith('/jury', 'Login successful!');
    expect(sessionStorage.getItem(TOKEN_KEYS.token)).toBe('x.y.z');
  });

  it('goes on to the page first asked for, from the state the router left', async () => {
    answerSignIn(TEST_ADMIN);
    const { goOn } = renderAlone({ from: { pathname: '/manage-contest', search: '?page=2' } });
    await signInThroughForm();
    await vi.waitFor(() => expect(goOn).toHaveBeenCalled());
    expect(goOn).toHaveBeenLastCalledWith('/manage-contest?page=2', 'Login successful!');
  });

  it('sends a tab that is already signed in on at once', async () => {
    sessionStorage.setItem(TOKEN_KEYS.token, 'a.b.c');
    sessionStorage.setItem(TOKEN_KEYS.refreshToken, 'refresh');
    sessionStorage.setItem(TOKEN_KEYS.expiresAt, String(Date.now() + 3_600_000));
    localStorage.setItem(TOKEN_KEYS.user, JSON.stringify(TEST_ADMIN));
    const { redirects } = renderAlone();
    await vi.waitFor(() => expect(redirects).toContain('/dashboard'));
  });

  it("shows the server's verdict on wrong credentials as a translated toast", async () => {
    handler = () => ({ status: 401, body: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Invalid email or password.' } });
    const { goOn } = renderAlone();
    await signInThroughForm();
    expect(await screen.findByText('The e-mail address or password is incorrect.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(goOn).not.toHaveBeenCalled();
  });
});
