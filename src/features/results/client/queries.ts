import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import { invalidateJudgingDashboard } from '../../judging/client.js';
import type { ContestJudging, ExamModeration, ExamResultsData, ResultsOverview, ShortlistResult } from '../shared/results-contract.js';
import { resultsKeys } from './query-keys.js';

/** An award category as the override's picker lists it. */
export interface AwardCategory {
  id: number;
  name: string;
  rank: number;
}

/** The options of a results export. */
export interface ExportOptions {
  format: string;
  per: string;
  anonymise: boolean;
  lang: string;
}

/** An exam's results (`GET /api/exams/:id/results`); every results write answers it anew. */
export const examResultsOptions = (examId: number) =>
  queryOptions({
    queryKey: resultsKeys.exam(examId),
    queryFn: ({ signal }) => http.get<{ data: ExamResultsData }>(`/exams/${examId}/results`, { signal }).then((answer) => answer.data),
    enabled: Number.isInteger(examId) && examId > 0,
  });

/** An exam's moderation (`GET /api/exams/:id/moderation`): flagged entries, every juror's scores side by side. */
export const moderationOptions = (examId: number) =>
  queryOptions({
    queryKey: resultsKeys.moderation(examId),
    queryFn: ({ signal }) => http.get<{ data: ExamModeration }>(`/exams/${examId}/moderation`, { signal }).then((answer) => answer.data),
    enabled: Number.isInteger(examId) && examId > 0,
  });

/** An exam's criteria (from its record), for a grade's per-criterion scores. */
export const examCriteriaOptions = (examId: number) =>
  queryOptions({
    queryKey: resultsKeys.examCriteria(examId),
    queryFn: ({ signal }) =>
      http
        .get<{ data: { criteria?: Array<{ key: string; label?: string; weight?: number; maximum?: number }> | null } }>(`/exams/${examId}`, { signal })
        .then((answer) => answer.data.criteria ?? []),
    enabled: Number.isInteger(examId) && examId > 0,
    staleTime: 60_000,
  });

/** Every award category (up to 100), for the override's picker. */
export const awardCategoriesOptions = () =>
  queryOptions({
    queryKey: resultsKeys.awardCategories,
    queryFn: ({ signal }) => http.get<{ data: AwardCategory[] }>('/award-categories', { query: { per_page: 100 }, signal }).then((answer) => answer.data),
    staleTime: 60_000,
  });

/** One contest's judging: its status and its row in each exam's results. */
export const contestJudgingOptions = (contestId: number) =>
  queryOptions({
    queryKey: resultsKeys.contest(contestId),
    queryFn: ({ signal }) => http.get<{ data: ContestJudging }>(`/contests/${contestId}/judging`, { signal }).then((answer) => answer.data),
  });

/** The dashboard charts' figures over every exam. */
export const resultsOverviewOptions = () =>
  queryOptions({
    queryKey: resultsKeys.overview,
    queryFn: ({ signal }) => http.get<{ data: ResultsOverview }>('/results/overview', { signal }).then((answer) => answer.data),
  });

/** Results' writes; each that changes an exam's results answers them. */
export const resultsApi = {
  finalise: (examId: number) => http.post<{ data: ExamResultsData }>(`/exams/${examId}/finalise`).then((answer) => answer.data),
  reopen: (examId: number, reason: string) => http.post<{ data: ExamResultsData }>(`/exams/${examId}/reopen`, { reason }).then((answer) => answer.data),
  /** Shortlists the top `top` entries to Round 2, or previews it (`dryRun`). */
  shortlist: (examId: number, top: number, dryRun: boolean) =>
    http.post<{ data: ShortlistResult }>(`/exams/${examId}/shortlist`, { top, dry_run: dryRun }).then((answer) => answer.data),
  /** Gives an entry another award (or none, `null`), with a reason. */
  overrideAward: (examId: number, contestId: number, awardCategoryId: number | null, reason: string) =>
    http.put<{ data: ExamResultsData }>(`/exams/${examId}/awards/${contestId}`, { award_category_id: awardCategoryId, reason }).then((answer) => answer.data),
  /** Gives an entry back the award its rank earns, with a reason. */
  restoreAward: (examId: number, contestId: number, reason: string) =>
    http.delete<{ data: ExamResultsData }>(`/exams/${examId}/awards/${contestId}`, undefined, { reason }).then((answer) => answer.data),
  /** Reopens a juror's submitted grade with a reason (the juror is told); judging's endpoint. */
  reopenGrade: (gradeId: number, reason: string) => http.post<{ data: { id: number; status: string } }>(`/grades/${gradeId}/reopen`, { reason }),
  /** The results file of an exam. */
  exportFile: (examId: number, options: ExportOptions) => http.get<Blob>(`/exams/${examId}/results/export`, { query: { ...options }, responseType: 'blob' }),
};

/**
 * Shows an exam's new results (a write's answer, when it gives them) and refreshes what results
 * feed: the dashboard's charts and judging figures.
 */
export function resultsChanged(client: QueryClient, results?: ExamResultsData): void {
  if (results) client.setQueryData(resultsKeys.exam(results.exam.id), results);
  void client.invalidateQueries({ queryKey: resultsKeys.overview });
  void invalidateJudgingDashboard(client);
}

export { invalidateResults } from './query-keys.js';
