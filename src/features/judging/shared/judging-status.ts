import type { JudgingStatus } from './dashboard-contract.js';

/**
 * The judging state of a contest (see {@link JudgingStatus}), from its status and how many jurors
 * graded it in each round. `shortlist` says where it stands once its category's Round 1 has been
 * shortlisted: `out` (not taken into Round 2: its judging is over, `graded`), `in` (waiting for its
 * Round 2 grades); undefined before any shortlist. A pure rule: the dashboard and the results use it.
 */
export function judgingStatus(status: unknown, r1Grades: number, r2Grades: number, shortlist?: 'in' | 'out'): JudgingStatus {
  if (status === 'rejected') return 'cancelled';
  if (r1Grades === 0) return 'not_graded_r1';
  if (r2Grades > 0 || shortlist === 'out') return 'graded';
  return 'not_graded_r2';
}
