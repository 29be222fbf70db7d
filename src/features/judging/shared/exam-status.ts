/** An examination's status. */
export type ExamStatus = 'draft' | 'open' | 'closed' | 'final';

/**
 * The moves an exam's status may make: forward one step, or a closed exam reopened. `final` locks
 * the exam for good (results).
 */
export const EXAM_MOVES: Readonly<Record<ExamStatus, readonly ExamStatus[]>> = {
  draft: ['open'],
  open: ['closed'],
  closed: ['open', 'final'],
  final: [],
};

/** Whether an exam may move from `from` to `to`. */
export function canMoveExam(from: string, to: string): boolean {
  return (EXAM_MOVES as Record<string, readonly string[]>)[from]?.includes(to) ?? false;
}
