import type { Kysely } from 'kysely';

/** The judging events written to `audit_log`. */
export type JudgingAuditAction =
  | 'exam.status'
  | 'exam.auto_assign'
  | 'assignment.create'
  | 'assignment.delete'
  | 'assignment.recuse'
  | 'grade.save'
  | 'grade.submit'
  | 'grade.reopen'
  | 'applicant.approve'
  | 'applicant.reject'
  | 'jury.reminders';

/**
 * Appends one judging event to the audit log, in the caller's transaction when given one: who did
 * what to which record, with the details (never a secret).
 */
export async function writeJudgingAudit(
  db: Kysely<any>,
  entry: { action: JudgingAuditAction; userId: number; entity: string; entityId: number | string; ip?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      action: entry.action,
      user_id: entry.userId,
      entity: entry.entity,
      entity_id: String(entry.entityId),
      details: entry.details ? JSON.stringify(entry.details) : null,
      ip: entry.ip ?? null,
    })
    .execute();
}
