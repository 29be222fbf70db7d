import { Theme } from '@radix-ui/themes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, i18n, i18nReady } from '../../src/app/i18n.js';
import { DashboardPage } from '../../src/app/pages/dashboard-page.js';
import { configureHttpClient } from '../../src/engine/data/http-client.js';
import { SessionContext } from '../../src/engine/ui/session-context.js';
import type { DashboardData } from '../../src/features/judging/index.js';
import type { AuthUser } from '../../src/shared/api-contract.js';
import { TEST_ADMIN } from '../helpers/test-users.js';

// The dashboard page shows the panels the features register (components-setup registers them) to
// the signed-in admin.
const admin = TEST_ADMIN;

const DATA: DashboardData = {
  totals: { juries: 20, exams: 12, companies: 10 },
  rounds: [
    { round: 1, juries: 12, graded: 89 },
    { round: 2, juries: 8, graded: 34 },
  ],
  latestContests: [
    {
      id: 36,
      company: 'Naga Media Group Sdn Bhd',
      categories: ['Best Use of Social'],
      juryR1: [],
      juryR2: [],
      status: 'not_graded_r1',
      created_at: '2026-11-20T12:00:00Z',
    },
    {
      id: 33,
      company: 'PT Rajawali Digital Indonesia',
      categories: ['Best Use of Data'],
      juryR1: ['Arjun Nair', 'Tan Wei Ming'],
      juryR2: [],
      status: 'not_graded_r2',
      created_at: '2026-11-18T12:00:00Z',
    },
    {
      id: 30,
      company: 'Rimba Digital Sdn Bhd',
      categories: ['Best Use of Video'],
      juryR1: [],
      juryR2: [],
      status: 'cancelled',
      created_at: '2026-11-16T12:00:00Z',
    },
  ],
};

function renderDashboard(answer: () => Response, user: AuthUser = admin) {
  const overview = { data: { exams: [], jurors: [], progress: [] } };
  configureHttpClient({
    fetch: async (input) =>
      String(input).includes('/results/overview') ? new Response(JSON.stringify(overview), { headers: { 'content-type': 'application/json' } }) : answer(),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <Theme>
          <MemoryRouter>
            <SessionContext.Provider value={{ user }}>
              <DashboardPage />
            </SessionContext.Provider>
          </MemoryRouter>
        </Theme>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('DashboardPage', () => {
  beforeAll(async () => {
    await i18nReady;
  });
  afterEach(async () => changeLanguage('en'));

  it('shows the stat cards, both round panels and the latest contests from the API', async () => {
    await changeLanguage('en');
    renderDashboard(() => json({ data: DATA }));
    const figures = await screen.findByRole('group', { name: 'Dashboard figures' });
    expect(within(figures).getByText('Total Juries').parentElement?.textContent).toContain('20');
    expect(within(figures).getByText('Total Exams').parentElement?.textContent).toContain('12');
    expect(within(figures).getByText('Total Companies').parentElement?.textContent).toContain('10');
    const round1 = screen.getByRole('heading', { name: 'Round 1' }).parentElement!;
    expect(round1.textContent).toMatch(/Total Juries\s*12/);
    expect(round1.textContent).toMatch(/Graded Exam\s*89/);
    const round2 = screen.getByRole('heading', { name: 'Round 2' }).parentElement!;
    expect(round2.textContent).toMatch(/Total Juries\s*8/);
    expect(round2.textContent).toMatch(/Graded Exam\s*34/);
    expect(screen.getByRole('heading', { name: 'Latest Contests' })).toBeTruthy();
    const rows = screen.getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['ID', 'Company Name', 'Categories', 'Jury R1', 'Jury R2', 'Status']);
    expect(rows[1]!.textContent).toContain('Not graded R1');
    expect(rows[2]!.textContent).toContain('Arjun Nair, Tan Wei Ming');
    expect(rows[2]!.textContent).toContain('Not graded R2');
    expect(rows[3]!.textContent).toContain('Cancelled');
    expect(within(rows[1]!).getByRole('link', { name: '36' }).getAttribute('href')).toBe('/manage-contest/36');
  });

  it('speaks Indonesian and Malay', async () => {
    await changeLanguage('id');
    const { unmount } = renderDashboard(() => json({ data: DATA }));
    expect(await screen.findByText('Belum dinilai Babak 1')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Babak 2' })).toBeTruthy();
    unmount();
    await changeLanguage('ms');
    renderDashboard(() => json({ data: DATA }));
    expect(await screen.findByText('Belum dimarkah Pusingan 2')).toBeTruthy();
    expect(screen.getByText('Jumlah Syarikat')).toBeTruthy();
  });

  it('formats the figures by the chosen language', async () => {
    const big: DashboardData = {
      ...DATA,
      totals: { juries: 1234, exams: 56_789, companies: 10 },
      rounds: [{ round: 1, juries: 12, graded: 12_345 }, DATA.rounds[1]],
    };
    await changeLanguage('en');
    const { unmount } = renderDashboard(() => json({ data: big }));
    const figures = await screen.findByRole('group', { name: 'Dashboard figures' });
    expect(
      within(figures)
        .getAllByTestId('stat-value')
        .map((node) => node.textContent),
    ).toEqual(['1,234', '56,789', '10']);
    expect(screen.getByRole('heading', { name: 'Round 1' }).parentElement!.textContent).toMatch(/Graded Exam\s*12,345/);
    unmount();
    await changeLanguage('id');
    renderDashboard(() => json({ data: big }));
    const angka = await screen.findAllByTestId('stat-value');
    expect(angka.map((node) => node.textContent)).toEqual(['1.234', '56.789', '10']);
    expect(screen.getByRole('heading', { name: 'Babak 1' }).parentElement!.textContent).toContain('12.345');
  });

  it('shows the error box when the figures cannot be loaded', async () => {
    await changeLanguage('en');
    renderDashboard(() => json({ statusCode: 503, code: 'UNAVAILABLE', message: 'Database down' }, 503));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Error loading the dashboard: The service is unavailable for a moment. Please try again shortly.',
    );
  });

  it('welcomes a role no panel is registered for', async () => {
    await changeLanguage('en');
    renderDashboard(() => json({ data: DATA }), { ...admin, role: 'juror' });
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(await screen.findByText('Welcome back, Ada Admin. Choose an area to work in.')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Dashboard figures' })).toBeNull();
  });
});
