/**
 * Wire types of the dashboard (`GET /api/dashboard`),
 * shared by the server that computes them and the screens that show them.
 */

/**
 * A contest's judging state on the dashboard, derived from its status and its grades:
 * - `cancelled`: the contest was rejected at screening (status `rejected`), whatever its grades;
 * - `not_graded_r1`: no juror has graded it in Round 1 yet;
 * - `not_graded_r2`: graded in Round 1, no Round 2 grade yet;
 * - `graded`: graded in both rounds.
 */
export type JudgingStatus = 'cancelled' | 'not_graded_r1' | 'not_graded_r2' | 'graded';
export const JUDGING_STATUSES: readonly JudgingStatus[] = ['not_graded_r1', 'not_graded_r2', 'graded', 'cancelled'];

/** One judging round's panel. */
export interface RoundFigures {
  round: 1 | 2;
  /** Jurors assigned to the round. */
  juries: number;
  /** Grades given with the round's examinations. */
  graded: number;
}

/** One row of 'Latest Contests'. */
export interface LatestContest {
  id: number;
  /** The submitting customer's company, null when unknown. */
  company: string | null;
  /** Award categories the contest is entered in (names). */
  categories: string[];
  /** Names of the jurors who graded it, per round, in name order. */
  juryR1: string[];
  juryR2: string[];
  status: JudgingStatus;
  created_at: string;
}

/** `GET /api/dashboard` → `{ data: DashboardData }`. */
export interface DashboardData {
  totals: { juries: number; exams: number; companies: number };
  rounds: [RoundFigures, RoundFigures];
  latestContests: LatestContest[];
}
