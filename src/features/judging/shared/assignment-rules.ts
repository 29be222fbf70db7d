import { sameCompany } from './company-key.js';

/** The rules an assignment of a juror to an entry in an exam must keep. */
export type AssignmentRule = 'exam_locked' | 'category' | 'round' | 'inactive' | 'conflict_company' | 'recused';

/** What the rules read of the exam, the entry (with its submittor's company) and the juror. */
export interface RuleFacts {
  exam: { category_id: number; round: number; status: string };
  contest: { category_id: number; company: string | null };
  juror: { round: number; is_active: boolean; company: string | null };
  /** The juror has recused from this entry before (in any exam). */
  recused: boolean;
}

/** English messages naming each rule (the API's `message`; the client shows `judging.rules.<rule>`). */
export const RULE_MESSAGES: Readonly<Record<AssignmentRule, string>> = {
  exam_locked: 'Eligibility: jurors can be assigned only while the examination is a draft or open.',
  category: "Eligibility: the entry's category is not the examination's category.",
  round: "Eligibility: the juror's round is not the examination's round.",
  inactive: 'Eligibility: the juror is not active.',
  conflict_company: "Conflict of interest: the juror's company is the submittor's company.",
  recused: 'Conflict of interest: the juror recused from this entry.',
};

/** The field a rule's error is reported on. */
export const RULE_PATHS: Readonly<Record<AssignmentRule, 'exam_id' | 'contest_id' | 'jury_id'>> = {
  exam_locked: 'exam_id',
  category: 'contest_id',
  round: 'jury_id',
  inactive: 'jury_id',
  conflict_company: 'jury_id',
  recused: 'jury_id',
};

/** Every rule the facts break, in a fixed order; empty when the assignment is allowed. */
export function assignmentViolations(facts: RuleFacts): AssignmentRule[] {
  const broken: AssignmentRule[] = [];
  if (facts.exam.status !== 'draft' && facts.exam.status !== 'open') broken.push('exam_locked');
  if (facts.contest.category_id !== facts.exam.category_id) broken.push('category');
  if (facts.juror.round !== facts.exam.round) broken.push('round');
  if (!facts.juror.is_active) broken.push('inactive');
  if (sameCompany(facts.juror.company, facts.contest.company)) broken.push('conflict_company');
  if (facts.recused) broken.push('recused');
  return broken;
}
