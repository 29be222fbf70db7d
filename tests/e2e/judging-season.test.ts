import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSuite, newContext, type StartedServer, screenshot, signIn, startBrowserSuite, withScreenshotOnFailure } from '../helpers/e2e.js';
import { apiClient, apiWrite } from '../helpers/e2e-page.js';

let suite: BrowserSuite | undefined;
let server: StartedServer;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  ({ server, browser } = suite = await startBrowserSuite({ DEMO_DATA: 'true' }));
  admin = await (await newContext(browser)).newPage();
  await signIn(admin, server.url);
});
afterAll(async () => suite?.close());

/** The season's admin screens: a juror's declared conflicts, an exam's panel and the auto-assign preview. */
describe('a season on the judging screens', () => {
  it("declares and withdraws a juror's conflict on the juror's page", async () => {
    const juror = (await apiClient(admin).get('/juries?per_page=1')).body.data[0] as { id: number; name: string };
    await withScreenshotOnFailure(admin, 'season-juror-conflicts', async () => {
      await admin.goto(`${server.url}/manage-jury/${juror.id}?lng=en`);
      const section = admin.getByTestId('juror-conflicts');
      await section.getByText('No conflict declared.').waitFor();
      await section.getByRole('combobox', { name: 'Conflict with' }).click();
      await admin.getByRole('option', { name: 'Brand', exact: true }).click();
      await section.getByRole('textbox', { name: 'Company or brand name' }).fill('Kopi Kenangan');
      await section.getByRole('textbox', { name: 'Reason' }).fill('Consults for the brand');
      await section.getByRole('button', { name: 'Declare the conflict' }).click();
      await admin.getByText('Conflict declared.').waitFor();
      await section.getByRole('rowheader', { name: 'Kopi Kenangan' }).waitFor();
      const stored = (await apiClient(admin).get(`/juries/${juror.id}/conflicts`)).body.data;
      expect(stored).toEqual([expect.objectContaining({ kind: 'brand', name: 'Kopi Kenangan', declared_by: 'admin' })]);
      await screenshot(admin, 'season-juror-conflicts');
      await section.getByRole('button', { name: 'Withdraw Kopi Kenangan' }).click();
      await admin.getByRole('dialog').getByRole('button', { name: 'Yes', exact: true }).click();
      await section.getByText('No conflict declared.').waitFor();
      expect((await apiClient(admin).get(`/juries/${juror.id}/conflicts`)).body.data).toEqual([]);
    });
  });

  it("edits an exam's panel and previews auto-assign from it, with each entry's status and code", async () => {
    const exam = await apiWrite(admin, 'POST', '/exams', {
      name: 'Season panel',
      category_id: 2,
      round: 1,
      max_score: 100,
      parallel_panel: true,
      criteria: [{ key: 'idea', label: 'Idea', weight: 1, maximum: 10 }],
    });
    const examId = Number(exam.id);
    const panel = (await apiClient(admin).get(`/exams/${examId}/panel`)).body.data as { jury_ids: number[]; jurors: Array<{ id: number; name: string }> };
    expect(panel.jury_ids.length).toBeGreaterThan(2);
    const dropped = panel.jurors.find((j) => j.id === panel.jury_ids[0])!;
    await withScreenshotOnFailure(admin, 'season-panel', async () => {
      await admin.goto(`${server.url}/exam-judging/${examId}?lng=en`);
      await admin.getByRole('heading', { name: 'Panel', exact: true }).waitFor();
      await admin.getByText("No panel saved yet: the round's active jurors.").waitFor();
      await admin.getByRole('checkbox', { name: `${dropped.name} on the panel` }).click();
      await admin.getByRole('button', { name: 'Save the panel' }).click();
      await admin.getByText('Panel saved.').waitFor();
      const saved = (await apiClient(admin).get(`/exams/${examId}/panel`)).body.data as { default: boolean; jury_ids: number[] };
      expect(saved.default).toBe(false);
      expect(saved.jury_ids).toEqual(panel.jury_ids.slice(1));
      await admin.getByRole('spinbutton', { name: 'Jurors per entry' }).fill('2');
      await admin.getByRole('button', { name: 'Preview auto-assign', exact: true }).click();
      const preview = admin.getByTestId('plan-preview');
      await preview.getByRole('table', { name: 'Who gets what' }).waitFor();
      expect(await preview.getByRole('rowheader', { name: dropped.name }).count()).toBe(0);
      await admin.getByRole('button', { name: 'Save assignments', exact: true }).click();
      await admin.getByText('Assignments saved.').waitFor();
      const matrix = (await apiClient(admin).get(`/exams/${examId}/matrix`)).body.data as { entries: Array<{ id: number; code: string; status: string }> };
      expect(matrix.entries.length).toBeGreaterThan(0);
      expect(matrix.entries.every((e) => e.status === 'approved')).toBe(true);
      await admin.getByRole('table').filter({ hasText: matrix.entries[0]!.code }).first().waitFor();
      await screenshot(admin, 'season-panel');
    });
  });
});
