import type { EntityRegistry } from '../../../server/index.js';
import { conflict } from '../../../server/index.js';
import type { JudgingMail } from './judging-mail.js';
import type { JudgingDb } from './tables.js';

/**
 * An examination's `final` status belongs to judging: the status workflow (`POST /exams/{id}/status`)
 * moves a closed exam to `final`, after which its grades and assignments are locked. What else
 * finalising means (results store their snapshot) is added by other features through
 * {@link onExamFinal}: judging never imports them.
 */

/** The 409 every write to a final exam gets, naming the exam. */
export const finalisedConflict = (exam: { id: number; name: string }) =>
  conflict(`Examination "${exam.name}" (${exam.id}) is final: its grades and results are locked. Reopen it to change them.`);

/** What a handler of {@link onExamFinal} is given. */
export interface ExamFinalEvent {
  /** The transaction that moves the exam to `final`: the handler writes in it (a throw undoes the move). */
  db: JudgingDb;
  registry: EntityRegistry;
  /** The exam, already `final` in this transaction, and the status it had. */
  exam: { id: number; name: string; previousStatus: string };
  actor: { userId: number; ip: string | null };
  /** The mailer, when the move may mail (a person's move through the route): results tell the entrants. */
  mail?: JudgingMail | undefined;
}

/** Reacts to an exam moving to `final`, inside the move's transaction. */
export type ExamFinalHandler = (event: ExamFinalEvent) => Promise<void>;

const handlers = new Set<ExamFinalHandler>();

/**
 * Registers a handler run whenever an exam moves to `final` through the status workflow, in the
 * move's transaction, after the status changed and before the move is audited (registration order;
 * the same handler twice counts once). The results feature registers the one that stores the
 * results snapshot (`exam_locks`).
 *
 * @example onExamFinal(async ({ db, exam, actor }) => { ... });
 */
export function onExamFinal(handler: ExamFinalHandler): void {
  handlers.add(handler);
}

/** Runs the registered handlers, in order (judging's status route). */
export async function runExamFinalHandlers(event: ExamFinalEvent): Promise<void> {
  for (const handler of handlers) await handler(event);
}
