import type { Criterion } from './weighted-total.js';

/** One exam of the juror's work (`GET /api/jury/assignments`). */
export interface JuryExam {
  id: number;
  name: string;
  round: number;
  status: string;
  max_score: number;
  criteria: Criterion[];
  /** When the exam opens and closes by itself (ISO date-times), null when not set. */
  opens_at: string | null;
  closes_at: string | null;
  category: string | null;
  progress: { total: number; assigned: number; in_progress: number; submitted: number; recused: number };
}

/**
 * One assignment with the entry's blind content and the juror's own grade. The entry is named by its
 * blind `code` (unique in the exam, e.g. `R1-7K3QX`), never by the contest's id: key an entry by the
 * assignment's `id`.
 */
export interface JuryAssignment {
  id: number;
  exam_id: number;
  /** The entry's blind code in this exam. */
  code: string;
  status: 'assigned' | 'in_progress' | 'submitted' | 'recused';
  recuse_reason: string | null;
  /** The entry's blind content (strategy, insight, creative_idea, ...): no id, nothing naming the entrant. */
  entry: Record<string, string | null>;
  grade: { scores: Record<string, number> | null; remarks: string | null; total: number | null; status: string } | null;
}

/** The juror's work. */
export interface JuryWork {
  juror: { id: number; name: string };
  read_only: boolean;
  exams: JuryExam[];
  assignments: JuryAssignment[];
}
