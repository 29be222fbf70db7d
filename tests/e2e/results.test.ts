import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distribution, finalScores } from '../../src/features/results/shared/chart-data.js';
import type { ExamModeration, ExamResultsData } from '../../src/features/results/shared/results-contract.js';
import { formatDate, formatNumber } from '../../src/shared/format.js';
import { newContext, type SignedInSuite, type StartedServer, startSignedInSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite, openInEnglish, switchLanguage } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

const cellsOf = (page: Page, table: string) =>
  page
    .getByRole('table', { name: table })
    .evaluate((el) => [...el.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));

describe('the results screen in the browser', { timeout: 120_000 }, () => {
  beforeAll(async () => ({ server, page } = suite = await startSignedInSuite({ DEMO_DATA: 'true' })));
  afterAll(() => suite?.close());

  it("opens from an exam's detail and shows the results table and the charts' table alternative", async () => {
    await withScreenshotOnFailure(page, 'results-table', async () => {
      await openInEnglish(page, `${server.url}/manage-exam`);
      const exams = (await apiClient(page).get('/exams')).body.data as Array<{ id: number; round: number }>;
      const exam = exams.find((e) => e.round === 1)!;
      const data = (await apiClient(page).get(`/exams/${exam.id}/results`)).body.data as ExamResultsData;

      await openInEnglish(page, `${server.url}/manage-exam/${exam.id}`);
      await page.getByRole('link', { name: 'Results' }).click();
      await page.waitForURL(`**/manage-exam/${exam.id}/results`);
      await expect.poll(() => page.getByRole('table', { name: 'Results' }).isVisible()).toBe(true);

      const rows = await cellsOf(page, 'Results');
      expect(rows).toHaveLength(data.entries.length);
      const fmt = (v: number | null) => (v === null ? '–' : v.toLocaleString('en', { maximumFractionDigits: 2 }));
      rows.forEach((row, i) => {
        const e = data.entries[i]!;
        expect(row[0]).toBe(String(e.position));
        expect(row[1]).toBe(e.rank === null ? 'Not graded' : String(e.rank));
        expect(row[2]).toContain(`#${e.contestId}`);
        if (e.company) expect(row[2]).toContain(e.company);
        expect(row[3]).toBe(`${e.submitted} / ${e.assigned}`);
        expect([row[4], row[5]]).toEqual([fmt(e.mean), fmt(e.trimmedMean)]);
        // The spread, and under it the moderation flag.
        expect(row[7]).toBe(`${fmt(e.spread)}${e.moderation ? 'Needs moderation' : ''}`);
        // The normalised score, and how many of the entry's grades fell back to raw totals.
        expect(row[6]).toBe(`${fmt(e.normalised)}${e.rawGrades > 0 ? `${e.rawGrades} raw grade${e.rawGrades === 1 ? '' : 's'}` : ''}`);
      });
      // The basis is stated, and its column marked as the one the rank follows.
      expect(data.ranking).toBe('normalised');
      await page.getByRole('note').filter({ hasText: 'Ranked by Normalised Score: rank, shortlist and awards follow it.' }).waitFor();
      const sorted = page.getByRole('table', { name: 'Results' }).locator('th[aria-sort="descending"]');
      expect(await sorted.textContent()).toContain('Normalised Score');

      const title = `Score distribution (${data.exam.category})`;
      const figure = page.getByRole('figure', { name: title });
      await figure.locator('summary').click();
      const bands = distribution(finalScores(data), data.exam.max_score);
      expect(await cellsOf(page, title)).toEqual(bands.map((b) => [`${b.from}–${b.to}`, String(b.count)]));
      const leniency = page.getByRole('figure', { name: 'Juror leniency' });
      await leniency.locator('summary').click();
      expect(await cellsOf(page, 'Juror leniency')).toHaveLength(data.jurors.length);
      expect(await page.locator('canvas').count()).toBe(3);
    });
  });

  it('fits the results table into a 1,280 px wide window without scrolling sideways, in every language', async () => {
    await withScreenshotOnFailure(page, 'results-1280', async () => {
      const exams = (await apiClient(page).get('/exams')).body.data as Array<{ id: number; round: number }>;
      await page.setViewportSize({ width: 1280, height: 800 });
      try {
        for (const [exam, language] of [
          [exams[0]!, 'en'],
          [exams[1]!, 'en'],
          [exams[0]!, 'id'],
          [exams[0]!, 'ms'],
        ] as const) {
          await page.goto(`${server.url}/manage-exam/${exam.id}/results`);
          await switchLanguage(page, language);
          await page.locator('table tbody tr').first().waitFor();
          const overflow = await page.evaluate(() => {
            const table = document.querySelector('table');
            const wide: string[] = [];
            for (let el: HTMLElement | null = table; el; el = el.parentElement)
              if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
                wide.push(`${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
            if (document.documentElement.scrollWidth > window.innerWidth) wide.push(`page: ${document.documentElement.scrollWidth}`);
            return wide;
          });
          expect(overflow, language).toEqual([]);
        }
      } finally {
        await switchLanguage(page, 'en');
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    });
  });

  it('opens moderation from the results, shows each juror per-criterion scores, and reopens a grade only with a reason', async () => {
    await withScreenshotOnFailure(page, 'results-moderation', async () => {
      const exams = (await apiClient(page).get('/exams')).body.data as Array<{ id: number; status: string }>;
      let found: { exam: number; moderation: ExamModeration } | undefined;
      for (const exam of exams.filter((e) => e.status === 'open' || e.status === 'closed')) {
        const moderation = (await apiClient(page).get(`/exams/${exam.id}/moderation`)).body.data as ExamModeration;
        if (moderation.entries.some((e) => e.grades.some((g) => g.status === 'submitted'))) {
          found = { exam: exam.id, moderation };
          break;
        }
      }
      expect(found).toBeDefined();
      const { exam, moderation } = found!;
      const entry = moderation.entries.find((e) => e.grades.some((g) => g.status === 'submitted'))!;
      const grade = entry.grades.find((g) => g.status === 'submitted')!;

      await openInEnglish(page, `${server.url}/manage-exam/${exam}/results`);
      await page.getByRole('link', { name: /^Moderation/ }).click();
      await page.waitForURL(`**/manage-exam/${exam}/moderation`);
      // Admins see the entry under its blind code and its contest id.
      const title = entry.code ? `Entry ${entry.code} (#${entry.contestId})` : `Entry #${entry.contestId}`;
      const table = page.getByRole('table', { name: title });
      await table.waitFor();
      const rows = await cellsOf(page, title);
      expect(rows.map((r) => r[0])).toEqual(entry.grades.map((g) => g.juror));
      const criterion = moderation.criteria[0]!;
      await page
        .getByRole('columnheader', { name: `${criterion.label} (/${criterion.maximum})` })
        .first()
        .waitFor();

      await table.getByRole('button', { name: `Reopen the grade of ${grade.juror}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: `Reopen the grade of ${grade.juror} for entry #${entry.contestId}` }).waitFor();
      // No reason: the server refuses (422 reason_required) and the dialog stays open.
      await dialog.getByRole('button', { name: 'Reopen' }).click();
      // biome-ignore lint/performance/useDomNodeTextContent: the toast's text as shown, like the other screen-text checks
      await expect.poll(() => page.locator('.Toastify').innerText()).toContain('3 to 500');
      expect(((await apiClient(page).get(`/grades/${grade.gradeId}`)).body.data as { status: string }).status).toBe('submitted');
      await dialog.getByRole('textbox', { name: 'Reason for reopening' }).fill('Far from the panel: check the guidance');
      await dialog.getByRole('button', { name: 'Reopen' }).click();
      await dialog.waitFor({ state: 'detached' });
      await table.getByText('Reopened because: Far from the panel: check the guidance').waitFor();
      expect((await apiClient(page).get(`/grades/${grade.gradeId}`)).body.data).toMatchObject({
        status: 'draft',
        reopen_reason: 'Far from the panel: check the guidance',
      });

      // The grade's detail page shows its scores by criterion label.
      await openInEnglish(page, `${server.url}/manage-grade/${grade.gradeId}`);
      const scores = page.getByRole('table', { name: 'Scores per criterion' });
      await scores.waitFor();
      expect((await cellsOf(page, 'Scores per criterion')).map((r) => r[0])).toEqual(moderation.criteria.map((c) => c.label));
    });
  });

  it("overrides an entry's award with a reason, shows it as overridden, and restores the rule's award", async () => {
    await withScreenshotOnFailure(page, 'results-award-override', async () => {
      const exams = (await apiClient(page).get('/exams')).body.data as Array<{ id: number; round: number }>;
      let data: ExamResultsData | undefined;
      for (const exam of exams) {
        const candidate = (await apiClient(page).get(`/exams/${exam.id}/results`)).body.data as ExamResultsData;
        if (!candidate.finalised && candidate.entries.length > 0) {
          data = candidate;
          break;
        }
      }
      expect(data).toBeDefined();
      const entry = data!.entries[0]!;
      const categories = (await apiClient(page).get('/award-categories')).body.data as Array<{ id: number; name: string }>;
      const chosen = categories.find((c) => c.id !== entry.award?.id)!;

      await openInEnglish(page, `${server.url}/manage-exam/${data!.exam.id}/results`);
      await page.getByRole('button', { name: `Change Award #${entry.contestId}`, exact: true }).click();
      await page
        .getByRole('dialog')
        .getByRole('heading', { name: `Change the award of entry #${entry.contestId}` })
        .waitFor();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('combobox', { name: 'Award' }).click();
      await page.getByRole('option', { name: chosen.name, exact: true }).click();
      // No reason: the server refuses (422) and the dialog stays open.
      await dialog.getByRole('button', { name: 'Change Award' }).click();
      // biome-ignore lint/performance/useDomNodeTextContent: the toast's text as shown, like the other screen-text checks
      await expect.poll(() => page.locator('.Toastify').innerText()).toContain('3 to 500');
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('Jury chair asked for a special mention');
      await dialog.getByRole('button', { name: 'Change Award' }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = page
        .getByRole('table', { name: 'Results' })
        .getByRole('row')
        .filter({ hasText: `#${entry.contestId}` });
      await row.getByText('Changed by an admin: Jury chair asked for a special mention').waitFor();
      await row.getByText(chosen.name, { exact: true }).waitFor();
      let after = (await apiClient(page).get(`/exams/${data!.exam.id}/results`)).body.data as ExamResultsData;
      expect(after.entries.find((e) => e.contestId === entry.contestId)).toMatchObject({
        award: { id: chosen.id },
        awardOverridden: true,
        awardReason: 'Jury chair asked for a special mention',
      });

      await page.getByRole('button', { name: `Restore Rule Award #${entry.contestId}`, exact: true }).click();
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('Special mention withdrawn');
      await dialog.getByRole('button', { name: 'Restore Rule Award' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => row.getByText(/Changed by an admin/).count()).toBe(0);
      after = (await apiClient(page).get(`/exams/${data!.exam.id}/results`)).body.data as ExamResultsData;
      expect(after.entries.find((e) => e.contestId === entry.contestId)).toMatchObject({ award: entry.award, awardOverridden: false });
      const history = await apiClient(page).get(`/exams/${data!.exam.id}/history`);
      const overrides = (history.body.data as Array<{ action: string }>).filter((h) => h.action === 'results.award_override');
      expect(overrides).toHaveLength(2);
    });
  });

  it('loads chart.js only on the screens with charts: not on the login page nor the first list', async () => {
    // The build's chunks that hold chart.js (esbuild's metafile), as the browser requests them.
    const meta = JSON.parse(fs.readFileSync(path.resolve('dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const chartChunks = Object.entries(meta.outputs)
      .filter(([file, out]) => file.endsWith('.js') && Object.keys(out.inputs).some((input) => input.includes('node_modules/chart.js/')))
      .map(([file]) => `/${path.relative('dist/public', file)}`);
    expect(chartChunks.length).toBeGreaterThan(0);
    const fetched: string[] = [];
    const chartsFetched = () => fetched.filter((url) => chartChunks.includes(url));
    const open = async () => {
      const context = await newContext(suite!.browser);
      const fresh = await context.newPage();
      fresh.on('request', (request) => fetched.push(new URL(request.url()).pathname));
      return fresh;
    };
    // The login page, in a browser with nothing cached.
    const login = await open();
    await withScreenshotOnFailure(login, 'results-chart-chunks-login', async () => {
      await login.goto(`${server.url}/login?lng=en`);
      await login.locator('form button[type="submit"]:not([disabled])').waitFor();
      expect(fetched.some((url) => url.endsWith('.js'))).toBe(true);
      expect(chartsFetched()).toEqual([]);
    });
    // The first list opened straight after a sign-in (as the navigation bench does: the session put in
    // storage before the page loads, nothing cached), then an exam's results.
    // A second admin: signing the suite's admin in again would end the page's session.
    const second = { email: 'charts.admin@example.com', password: 'charts-admin-passphrase-42' };
    await apiWrite(page, 'POST', '/auth/register', { name: 'Charts Admin', ...second, role: 'admin' });
    const health = await fetch(`${server.url}/api/health`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const answer = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: JSON.stringify(second),
    });
    expect(answer.status).toBe(200);
    const session = { body: (await answer.json()) as { token: string; refreshToken: string; expiresIn: number; data: unknown } };
    const list = await open();
    await list.context().addInitScript(
      (s: { token: string; refreshToken: string; expiresAt: number; user: unknown }) => {
        sessionStorage.setItem('auth_token', s.token);
        sessionStorage.setItem('auth_refresh_token', s.refreshToken);
        sessionStorage.setItem('auth_expires_at', String(s.expiresAt));
        localStorage.setItem('auth_user', JSON.stringify(s.user));
      },
      { token: session.body.token, refreshToken: session.body.refreshToken, expiresAt: Date.now() + session.body.expiresIn * 1000, user: session.body.data },
    );
    await withScreenshotOnFailure(list, 'results-chart-chunks-list', async () => {
      fetched.length = 0;
      await list.goto(`${server.url}/manage-contest`);
      await list.locator('tbody .rt-TableRowHeaderCell').first().waitFor();
      expect(fetched.some((url) => url.endsWith('.js'))).toBe(true);
      expect(chartsFetched()).toEqual([]);
      const exams = (await apiClient(list).get('/exams')).body.data as Array<{ id: number }>;
      await list.goto(`${server.url}/manage-exam/${exams[0]!.id}/results`);
      await expect.poll(() => list.locator('canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(chartsFetched().length).toBeGreaterThan(0);
    });
    await login.context().close();
    await list.context().close();
  });

  it("shows the dashboard's charts with their table alternative", async () => {
    await withScreenshotOnFailure(page, 'results-dashboard', async () => {
      await openInEnglish(page, `${server.url}/dashboard`);
      const progress = page.getByRole('figure', { name: 'Grading progress' });
      await progress.locator('summary').click();
      const overview = (await apiClient(page).get('/results/overview')).body.data as { progress: Array<{ date: string; submitted: number }> };
      // Each day as a calendar date in the reader's language ('November 19, 2026'), the count formatted.
      expect(await cellsOf(page, 'Grading progress')).toEqual(overview.progress.map((p) => [formatDate(p.date, 'en'), formatNumber(p.submitted, 'en')]));
      // Every submitted grade of the exams the charts cover, as each exam's results count them.
      const covered = ((await apiClient(page).get('/results/overview')).body.data as { exams: Array<{ examId: number }> }).exams;
      expect(covered.length).toBeGreaterThan(0);
      let submitted = 0;
      for (const exam of covered) submitted += ((await apiClient(page).get(`/exams/${exam.examId}/results`)).body.data as ExamResultsData).submitted;
      expect(overview.progress.at(-1)!.submitted).toBe(submitted);
    });
  });
});
