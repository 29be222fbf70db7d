import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { DashboardData } from '../shared/dashboard-contract.js';
import type { ExamStatus } from '../shared/exam-status.js';
import type { JuryWork } from '../shared/jury-types.js';
import type { EntrySource } from '../shared/season-types.js';
import { judgingKeys } from './query-keys.js';

/** Grading counts of one exam, juror or category. */
export type Counts = { total: number; assigned: number; in_progress: number; submitted: number; recused: number };

/**
 * An exam's assignment matrix: its eligible entries (status, blind code, how each came in), the
 * jurors of its panel (and any other assigned), who is assigned what, and the conflicts.
 */
export interface Matrix {
  exam: { id: number; name: string; round: number; status: ExamStatus; category_id: number; edition_id: number | null };
  panel: { default: boolean; jury_ids: number[] };
  entries: Array<{
    id: number;
    code: string | null;
    status: string;
    company: string | null;
    brand: string | null;
    eligible: boolean;
    source: EntrySource | null;
    count: number;
  }>;
  jurors: Array<{ id: number; name: string; on_panel: boolean; edition_load: number; count: number }>;
  assignments: Array<{ id: number; contest_id: number; jury_id: number; status: string }>;
  conflicts: Array<[number, number]>;
  conflict_rules: Array<{ contest_id: number; jury_id: number; rules: string[] }>;
}

/** An auto-assign plan: the pairs, each panel juror's load (in the exam and the edition), and the entries left short. */
export interface Plan {
  planned: Array<{ contest_id: number; jury_id: number }>;
  load: Array<{ jury_id: number; name: string; count: number; edition_count: number; expert: boolean }>;
  short: Array<{ contest_id: number; assigned: number; missing: number; conflicts: number; reason: string }>;
  panel: { size: number; default: boolean };
}

/** An exam as the picker lists it. */
export interface ExamSummary {
  id: number;
  name: string;
  status: string;
}

/** Grading progress per category and round. */
export type CategoryProgress = Counts & { category_id: number; name: string; round: number };

/** One exam's grading progress, overall and per juror. */
export interface ExamProgress {
  exams: Counts[];
  jurors: Array<Counts & { jury_id: number; name: string }>;
}

/** A grade as the scoring sheet saves it (a draft, or submitted). */
export interface GradeBody {
  scores: Record<string, number>;
  remarks: string | null;
  submit: boolean;
}

const keys = judgingKeys;

/** The dashboard's figures (`GET /api/dashboard`): totals, the two rounds and the latest contests. */
export const dashboardOptions = () =>
  queryOptions({
    queryKey: keys.dashboard,
    queryFn: ({ signal }) => http.get<{ data: DashboardData }>('/dashboard', { signal }).then((answer) => answer.data),
  });

/** The jury portal's work: the signed-in juror's, or (an admin's view) that of `juryId`. */
export const juryWorkOptions = (juryId: string | null) =>
  queryOptions({
    queryKey: keys.jury(juryId),
    queryFn: ({ signal }) =>
      http.get<{ data: JuryWork }>('/jury/assignments', { query: juryId ? { jury_id: juryId } : undefined, signal }).then((answer) => answer.data),
  });

/** Every exam (up to 100), for the judging screen's picker. */
export const examsOptions = () =>
  queryOptions({
    queryKey: keys.exams,
    queryFn: ({ signal }) => http.get<{ data: ExamSummary[] }>('/exams', { query: { per_page: 100 }, signal }).then((answer) => answer.data),
  });

/** Grading progress per category and round over every exam. */
export const categoryProgressOptions = () =>
  queryOptions({
    queryKey: keys.progress('all'),
    queryFn: ({ signal }) => http.get<{ data: { categories: CategoryProgress[] } }>('/judging/progress', { signal }).then((answer) => answer.data.categories),
  });

/** One exam's grading progress, overall and per juror. */
export const examProgressOptions = (examId: number) =>
  queryOptions({
    queryKey: keys.progress(examId),
    queryFn: ({ signal }) => http.get<{ data: ExamProgress }>('/judging/progress', { query: { exam_id: examId }, signal }).then((answer) => answer.data),
  });

/** One exam's assignment matrix. */
export const matrixOptions = (examId: number) =>
  queryOptions({
    queryKey: keys.matrix(examId),
    queryFn: ({ signal }) => http.get<{ data: Matrix }>(`/exams/${examId}/matrix`, { signal }).then((answer) => answer.data),
  });

/** Judging's writes: each answers what the server gives back; the caller refreshes what it shows. */
export const judgingApi = {
  /** Saves a grade (a draft, or submitted with `submit`). */
  saveGrade: (assignmentId: number, body: GradeBody) => http.put(`/assignments/${assignmentId}/grade`, body),
  /** Recuses the juror from an assignment, with a reason. */
  recuse: (assignmentId: number, reason: string) => http.post(`/assignments/${assignmentId}/recuse`, { reason }),
  /** 'I know this entry': the juror declares a conflict with the entry (and is recused from it), with a reason. */
  declareConflict: (assignmentId: number, reason: string) => http.post(`/assignments/${assignmentId}/conflict`, { reason }),
  /** Moves an exam to another status (open, close, finalise, reopen). */
  moveExam: (examId: number, status: ExamStatus) => http.post(`/exams/${examId}/status`, { status }),
  /** Plans (`dryRun`) or makes the assignments of an exam, `perEntry` jurors per entry. */
  autoAssign: (examId: number, perEntry: number, dryRun: boolean) =>
    http.post<{ data: Plan }>(`/exams/${examId}/auto-assign`, { per_entry: perEntry, dry_run: dryRun }).then((answer) => answer.data),
  /** Assigns a juror an entry. */
  assign: (examId: number, contestId: number, juryId: number) => http.post(`/exams/${examId}/assignments`, { contest_id: contestId, jury_id: juryId }),
  /** Removes an assignment. */
  unassign: (examId: number, assignmentId: number) => http.delete(`/exams/${examId}/assignments/${assignmentId}`),
  /** Mails the exam's jurors with work left a reminder; answers how many were sent (and failed), the entries left and the transport. */
  remind: (examId: number) =>
    http
      .post<{ data: { sent: number; failed: number; entries: number; transport: 'smtp' | 'log' } }>('/judging/reminders', { exam_id: examId })
      .then((answer) => answer.data),
  /** Approves a jury applicant for a round (creates the juror and the account, mails the invitation). */
  approveApplicant: (id: number, round: number) => http.post(`/applicants/${id}/approve`, { round }),
  /** Rejects a jury applicant, with a reason. */
  rejectApplicant: (id: number, reason: string) => http.post(`/applicants/${id}/reject`, { reason }),
};

export { invalidateJudging, invalidateJudgingDashboard, invalidateJuryWork } from './query-keys.js';
