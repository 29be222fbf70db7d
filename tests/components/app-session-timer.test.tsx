import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectHttpClient, tokenStore } from '../../src/app/auth/session.js';
import { i18n } from '../../src/app/i18n.js';
import { SessionTimer } from '../../src/app/layout/session-timer.js';
import { configureHttpClient } from '../../src/engine/data/http-client.js';
import { TEST_ADMIN } from '../helpers/test-users.js';

const admin = TEST_ADMIN;

beforeAll(async () => {
  await i18n.changeLanguage('en');
  connectHttpClient();
});

afterEach(() => {
  tokenStore.stop();
  sessionStorage.clear();
  localStorage.clear();
  vi.useRealTimers();
});

function renderTimer() {
  render(
    <I18nextProvider i18n={i18n}>
      <SessionTimer />
      <ToastContainer />
    </I18nextProvider>,
  );
}

describe("the header's 'turns remaining' label", () => {
  it('counts the session time down each second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    tokenStore.setSession({ token: 'a.b.c', refreshToken: 'r', expiresIn: 3600 }, admin);
    tokenStore.noteActivity();
    renderTimer();
    expect(screen.getByText('Session: 1:00:00 left')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(61_000));
    expect(screen.getByText('Session: 58:59 left')).toBeTruthy();
  });

  it('offers to stay signed in at 5 minutes left when the user has been idle, and refreshes on request', async () => {
    const refreshBodies: unknown[] = [];
    configureHttpClient({
      fetch: (async (url: RequestInfo | URL, init?: RequestInit) => {
        if (String(url) === '/api/auth/refresh') {
          refreshBodies.push(JSON.parse(String(init?.body)));
          return new Response(JSON.stringify({ accessToken: 'n.e.w', refreshToken: 'r2', expiresIn: 3600 }), { status: 200 });
        }
        return new Response(null, { status: 404 });
      }) as typeof fetch,
    });
    tokenStore.setSession({ token: 'a.b.c', refreshToken: 'r1', expiresIn: 301 }, admin);
    renderTimer();
    expect(screen.queryByRole('button', { name: 'Stay signed in' })).toBeNull();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    const stay = await screen.findByRole('button', { name: 'Stay signed in' });
    expect(screen.getByText('Your session ends in less than 5 minutes. Stay signed in to keep working.')).toBeTruthy();
    fireEvent.click(stay);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(refreshBodies).toEqual([{ refreshToken: 'r1' }]);
    expect(tokenStore.read()?.token).toBe('n.e.w');
    expect(await screen.findByText('You are still signed in.')).toBeTruthy();
  });
});
