/**
 * Wire types of the results API (`/api/exams/{id}/results`, shortlist, awards, finalise, export),
 * shared by the server that computes them and the screens that show them.
 */
import type { JudgingStatus } from '../../judging/index.js';
import type { EntryResult, JurorSummary, RankingBasis, RawReason } from './aggregate.js';

/** One entry's row: the figures of `aggregateExam`, who entered it and its award. */
export interface ResultsEntry extends EntryResult {
  submittedAt: string | null;
  campaign: string | null;
  customer: string | null;
  company: string | null;
  award: { id: number; name: string } | null;
  /** The award the rules give when an admin's override replaced it. */
  ruleAward: { id: number; name: string } | null;
  awardOverridden: boolean;
  awardReason: string | null;
}

export interface ResultsJuror extends JurorSummary {
  name: string;
}

/** How many submitted grades the exam had at the end of each day (UTC) a grade was submitted. */
export interface ProgressPoint {
  date: string;
  submitted: number;
}

/** `GET /api/exams/{id}/results` → `{ data: ExamResultsData }`. */
export interface ExamResultsData {
  exam: { id: number; name: string; round: number; category_id: number; category: string | null; max_score: number; status: string };
  /** What rank, shortlist and awards follow: the exam's `ranking` (a snapshot locked before it existed: `trimmed_mean`). */
  ranking: RankingBasis;
  /** Set once the exam is finalised: the figures are then the ones locked at that moment. */
  finalised: { at: string; by: number | null } | null;
  examMean: number | null;
  examSd: number | null;
  moderationThreshold: number;
  /** Grades assigned in all, and submitted. */
  assigned: number;
  submitted: number;
  entries: ResultsEntry[];
  jurors: ResultsJuror[];
  progress: ProgressPoint[];
}

/** `POST /api/exams/{id}/shortlist` body: `top` or `min_score` (a final score on the exam's scale). */
export interface ShortlistRequest {
  top?: number;
  min_score?: number;
  dry_run?: boolean;
}

/** Its answer: what was (or, with `dry_run`, would be) done to the Round 2 exam's entries. */
export interface ShortlistResult {
  dryRun: boolean;
  targetExamId: number | null;
  /** The Round 2 exam's name (what the entries move into); null when a dry run would create it. */
  targetExamName: string | null;
  /** True when the Round 2 exam did not exist (and was, unless dry run, created as a draft). */
  createdExam: boolean;
  /** Contest ids the rule selects, in display order. */
  selected: number[];
  added: number[];
  removed: number[];
  /** Entries no longer selected that are kept because they already have Round 2 grades. */
  keptGraded: number[];
  unchanged: number[];
}

/** `GET /api/results/overview` → `{ data: ResultsOverview }`: the dashboard's charts over every exam. */
export interface ResultsOverview {
  /** Final scores of each exam's graded entries, with the category and round. */
  exams: Array<{ examId: number; category: string | null; round: number; maxScore: number; scores: number[] }>;
  /** Each juror's leniency across the exams they graded: the mean of (juror mean − exam mean), weighted by their grades. */
  jurors: Array<{ name: string; grades: number; mean: number; leniency: number }>;
  /** Submitted grades of every exam, cumulated by day. */
  progress: ProgressPoint[];
}

/** `GET /api/contests/{id}/judging` → `{ data: ContestJudging }`: one contest's place in each exam it is judged in. */
export interface ContestJudging {
  contestId: number;
  status: JudgingStatus;
  exams: Array<{ examId: number; name: string; round: number; finalised: boolean; entry: ResultsEntry; jurors: Array<{ name: string; total: number }> }>;
}

/** One juror's grade of a flagged entry, as moderation shows it side by side with the others. */
export interface ModerationGrade {
  gradeId: number;
  jurorId: number;
  juror: string;
  status: 'draft' | 'submitted';
  total: number;
  /** The normalised total (null while the grade is a draft: drafts never count). */
  normalised: number | null;
  /** Why the juror's totals are kept raw (the fallback), null when normalised. */
  raw: RawReason | null;
  /** Score per criterion key. */
  scores: Record<string, number>;
  remarks: string | null;
  /** Why an admin reopened it (kept after the juror submits again). */
  reopenReason: string | null;
  submittedAt: string | null;
}

/** A flagged entry (its jurors disagree: spread above the threshold), or one with a grade reopened and not yet submitted again. */
export interface ModerationEntry {
  contestId: number;
  /** The entry's blind code in the exam, when judging gives codes (admins see both). */
  code: string | null;
  campaign: string | null;
  position: number;
  rank: number | null;
  score: number | null;
  mean: number | null;
  spread: number | null;
  flagged: boolean;
  grades: ModerationGrade[];
}

/** `GET /api/exams/{id}/moderation` → `{ data: ExamModeration }`. */
export interface ExamModeration {
  exam: { id: number; name: string; round: number; status: string; max_score: number; ranking: RankingBasis };
  moderationThreshold: number;
  criteria: Array<{ key: string; label: string; weight: number; maximum: number }>;
  /** Whether entries carry blind codes (judging's codes), else only contest ids. */
  codes: boolean;
  entries: ModerationEntry[];
}
