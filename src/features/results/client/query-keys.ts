import type { QueryClient } from '@tanstack/react-query';

/**
 * Results' query keys, every one under `['results']`, and the invalidation other features call
 * (through `client.ts`). No runtime import, as judging's.
 */
export const resultsKeys = {
  all: ['results'] as const,
  exam: (examId: number) => ['results', examId] as const,
  moderation: (examId: number) => ['results', 'moderation', examId] as const,
  examCriteria: (examId: number) => ['results', 'criteria', examId] as const,
  awardCategories: ['results', 'award-categories'] as const,
  contest: (contestId: number) => ['results', 'contest', contestId] as const,
  overview: ['results', 'overview'] as const,
};

/** Refreshes everything results shows (grades or awards changed elsewhere). */
export function invalidateResults(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: resultsKeys.all });
}
