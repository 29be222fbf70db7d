/** An admin's review of an entry (`POST /api/contests/{id}/review`). */
export type ReviewDecision = 'approve' | 'reject';

/** The review request: a reason is required to reject (kept in the audit log, told to the entrant). */
export interface ContestReviewInput {
  decision: ReviewDecision;
  reason?: string;
}

/** The statuses an entry can be reviewed from; approving makes it eligible for Round 1. */
export const REVIEWABLE_STATUSES = ['pending', 'submitted'] as const;

/** The status each decision sets. */
export const REVIEW_OUTCOME = { approve: 'approved', reject: 'rejected' } as const satisfies Record<ReviewDecision, string>;

/** The longest reason kept. */
export const REVIEW_REASON_MAX = 500;

/** Whether an entry with this status can be reviewed. */
export const isReviewable = (status: unknown): boolean => (REVIEWABLE_STATUSES as readonly unknown[]).includes(status);

/** The reviewed entry as answered. */
export interface ContestReview {
  id: number;
  status: string;
  category_id: number;
  edition_id: number | null;
  customer_id: number | null;
}
