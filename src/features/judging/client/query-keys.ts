import type { QueryClient } from '@tanstack/react-query';

/**
 * Judging's query keys, every one under `['judging']` so one invalidation refreshes them all, and
 * the invalidations other features call (through `client.ts`). No runtime import: the client face
 * re-exports these without bringing TanStack Query or the engine into the app's entry.
 */
export const judgingKeys = {
  all: ['judging'] as const,
  dashboard: ['judging', 'dashboard'] as const,
  jury: (juryId: string | null) => ['judging', 'jury', juryId ?? 'me'] as const,
  exams: ['judging', 'exams'] as const,
  progress: (examId: number | 'all') => ['judging', 'progress', examId] as const,
  matrix: (examId: number) => ['judging', 'matrix', examId] as const,
  panel: (examId: number) => ['judging', 'panel', examId] as const,
  conflicts: (juryId: number) => ['judging', 'conflicts', juryId] as const,
};

/** Refreshes everything judging shows (after a write of its own or another feature's). */
export function invalidateJudging(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: judgingKeys.all });
}

/** Refreshes the dashboard's judging figures (another feature changed what they count). */
export function invalidateJudgingDashboard(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: judgingKeys.dashboard });
}

/** Refreshes one jury portal's work (the signed-in juror's when `juryId` is null). */
export function invalidateJuryWork(client: QueryClient, juryId: string | null): Promise<void> {
  return client.invalidateQueries({ queryKey: judgingKeys.jury(juryId) });
}
