import type { Criterion } from './weighted-total.js';

/** One exam of the juror's work (`GET /api/jury/assignments`). */
export interface JuryExam {
  id: number;
  name: string;
  round: number;
  status: string;
  max_score: number;
  criteria: Criterion[];
  category: string | null;
  progress: { total: number; assigned: number; in_progress: number; submitted: number; recused: number };
}

/** One assignment with the entry's blind content and the juror's own grade. */
export interface JuryAssignment {
  id: number;
  exam_id: number;
  status: 'assigned' | 'in_progress' | 'submitted' | 'recused';
  recuse_reason: string | null;
  entry: Record<string, string | number | null> & { id: number };
  grade: { scores: Record<string, number> | null; remarks: string | null; total: number | null; status: string } | null;
}

/** The juror's work. */
export interface JuryWork {
  juror: { id: number; name: string };
  read_only: boolean;
  exams: JuryExam[];
  assignments: JuryAssignment[];
}
