import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distribution, finalScores } from '../../src/shared/results/chart-data.js';
import type { ExamResultsData } from '../../src/shared/results/results-contract.js';
import { startSignedInSuite, withScreenshotOnFailure, type SignedInSuite, type StartedServer } from '../helpers/e2e.js';
import { apiClient, openInEnglish } from '../helpers/e2e-page.js';

let suite: SignedInSuite | undefined;
let server: StartedServer;
let page: Page;

const cellsOf = (page: Page, table: string) =>
  page.getByRole('table', { name: table }).evaluate((el) =>
    [...el.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())),
  );

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
        expect(row[4]).toBe(`${e.submitted} / ${e.assigned}`);
        expect([row[5], row[6], row[7], row[8]]).toEqual([fmt(e.mean), fmt(e.trimmedMean), fmt(e.normalised), fmt(e.spread)]);
        expect(row[9]).toBe(e.moderation ? 'Needs moderation' : '');
      });

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

  it("shows the dashboard's charts with their table alternative", async () => {
    await withScreenshotOnFailure(page, 'results-dashboard', async () => {
      await openInEnglish(page, `${server.url}/dashboard`);
      const progress = page.getByRole('figure', { name: 'Grading progress' });
      await progress.locator('summary').click();
      const overview = (await apiClient(page).get('/results/overview')).body.data as { progress: Array<{ date: string; submitted: number }> };
      expect(await cellsOf(page, 'Grading progress')).toEqual(overview.progress.map((p) => [p.date, String(p.submitted)]));
      expect(overview.progress.at(-1)!.submitted).toBe(123);
    });
  });
});
