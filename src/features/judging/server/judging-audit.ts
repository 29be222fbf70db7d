import { writeAudit } from '../../../server/index.js';
import type { JudgingDb } from './tables.js';

/** Who acts, for the audit log: a user, or the system (`userId: null`: the exam scheduler). */
export interface Actor {
  userId: number | null;
  ip: string | null;
}

/** The judging events written to `audit_log`. */
export type JudgingAuditAction =
  | 'exam.status'
  | 'exam.auto_assign'
  | 'exam.panel'
  | 'assignment.create'
  | 'assignment.delete'
  | 'assignment.recuse'
  | 'jury.conflict.declare'
  | 'jury.conflict.delete'
  | 'grade.save'
  | 'grade.submit'
  | 'grade.reopen'
  | 'applicant.approve'
  | 'applicant.reject'
  | 'contest.approve'
  | 'contest.reject'
  | 'jury.reminders';

/**
 * Appends one judging event to the audit log's hash chain, in the caller's transaction when given
 * one: who did what to which record, with the details (never a secret).
 */
export async function writeJudgingAudit(
  db: JudgingDb,
  entry: {
    action: JudgingAuditAction;
    userId: number | null;
    entity: string;
    entityId: number | string;
    ip?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await writeAudit(db, {
    action: entry.action,
    userId: entry.userId,
    entity: entry.entity,
    entityId: entry.entityId,
    ip: entry.ip ?? null,
    details: entry.details,
  });
}
