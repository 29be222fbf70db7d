import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { importJobOptions } from '../../src/features/dataio/client/queries.js';
import { dashboardOptions, juryWorkOptions } from '../../src/features/judging/client/queries.js';
import { invalidateJudgingDashboard } from '../../src/features/judging/client.js';
import type { DashboardData } from '../../src/features/judging/index.js';
import { examResultsOptions, resultsChanged, resultsOverviewOptions } from '../../src/features/results/client/queries.js';
import type { ExamResultsData } from '../../src/features/results/shared/results-contract.js';

const DASHBOARD = {
  totals: { juries: 1, exams: 1, companies: 1 },
  rounds: [
    { round: 1, juries: 1, graded: 0 },
    { round: 2, juries: 0, graded: 0 },
  ],
  latestContests: [],
} as DashboardData;

/** The refetch interval `options` gives a query whose data is `data`. */
function intervalFor(options: ReturnType<typeof importJobOptions>, data: unknown): unknown {
  const interval = options.refetchInterval;
  if (typeof interval !== 'function') return interval;
  return interval({ state: { data } } as never);
}

describe("the features' query options", () => {
  it('read an import job again every second while it runs, and stop once it has finished', () => {
    const options = importJobOptions(7);
    expect(options.queryKey).toEqual(['dataio', 'job', 7]);
    expect(intervalFor(options, { id: 7, status: 'running' })).toBe(1000);
    for (const status of ['done', 'failed', 'cancelled', 'uploaded']) expect(intervalFor(options, { id: 7, status })).toBe(false);
    expect(intervalFor(options, undefined)).toBe(false);
  });

  it("invalidate another feature's data through its client face only, by its own keys", async () => {
    const client = new QueryClient();
    client.setQueryData(dashboardOptions().queryKey, DASHBOARD);
    client.setQueryData(juryWorkOptions(null).queryKey, { assignments: [], exams: [] } as never);
    await invalidateJudgingDashboard(client);
    expect(client.getQueryState(dashboardOptions().queryKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(juryWorkOptions(null).queryKey)?.isInvalidated).toBe(false);
  });

  it("put a write's answer in the exam's results and refresh the dashboard's charts and judging figures", () => {
    const client = new QueryClient();
    client.setQueryData(dashboardOptions().queryKey, DASHBOARD);
    client.setQueryData(resultsOverviewOptions().queryKey, { exams: [], jurors: [], progress: [] });
    const results = { exam: { id: 3 } } as unknown as ExamResultsData;
    resultsChanged(client, results);
    expect(client.getQueryData(examResultsOptions(3).queryKey)).toBe(results);
    expect(client.getQueryState(resultsOverviewOptions().queryKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(dashboardOptions().queryKey)?.isInvalidated).toBe(true);
  });
});
