import { sameCompany } from './company-key.js';

/** The rules an assignment of a juror to an entry in an exam must keep. */
export type AssignmentRule =
  | 'exam_locked'
  | 'category'
  | 'not_eligible'
  | 'not_on_panel'
  | 'inactive'
  | 'conflict_company'
  | 'conflict_brand'
  | 'declared_company'
  | 'declared_entry'
  | 'declared_brand'
  | 'recused';

/** A conflict of interest declared for a juror: with a company, an entry or a brand (see `JuryConflict`). */
export interface DeclaredConflict {
  kind: 'company' | 'entry' | 'brand';
  contest_id: number | null;
  name: string | null;
}

/** What the conflict rules read of an entry: its id, its submittor's company and its campaign's brand. */
export interface EntryConflictFacts {
  id: number;
  company: string | null;
  brand: string | null;
}

/** What the conflict rules read of a juror: their organisation and their declared conflicts. */
export interface JurorConflictFacts {
  company: string | null;
  declared: readonly DeclaredConflict[];
}

/** What the rules read of the exam, the entry and the juror. */
export interface RuleFacts {
  exam: { category_id: number; status: string };
  /** `eligible`: the entry is one the exam takes (approved in its category and edition, or shortlisted into it). */
  contest: EntryConflictFacts & { category_id: number; eligible: boolean };
  /** `on_panel`: the juror sits on the exam's panel. */
  juror: JurorConflictFacts & { is_active: boolean; on_panel: boolean };
  /** The juror has recused from this entry before (in any exam). */
  recused: boolean;
}

/** English messages naming each rule (the API's `message`; the client shows `judging.rules.<rule>`). */
export const RULE_MESSAGES: Readonly<Record<AssignmentRule, string>> = {
  exam_locked: 'Eligibility: jurors can be assigned only while the examination is a draft or open.',
  category: "Eligibility: the entry's category is not the examination's category.",
  not_eligible:
    'Eligibility: the entry is not eligible for this examination (Round 1 takes approved entries of its category and edition; a later round only the entries shortlisted into it).',
  not_on_panel: "Eligibility: the juror is not on the examination's panel.",
  inactive: 'Eligibility: the juror is not active.',
  conflict_company: "Conflict of interest: the juror's company is the submittor's company.",
  conflict_brand: "Conflict of interest: the juror's company is the campaign's brand.",
  declared_company: "Conflict of interest: a conflict with the submittor's company was declared for the juror.",
  declared_entry: 'Conflict of interest: a conflict with this entry was declared for the juror.',
  declared_brand: "Conflict of interest: a conflict with the campaign's brand was declared for the juror.",
  recused: 'Conflict of interest: the juror recused from this entry.',
};

/** The field a rule's error is reported on. */
export const RULE_PATHS: Readonly<Record<AssignmentRule, 'exam_id' | 'contest_id' | 'jury_id'>> = {
  exam_locked: 'exam_id',
  category: 'contest_id',
  not_eligible: 'contest_id',
  not_on_panel: 'jury_id',
  inactive: 'jury_id',
  conflict_company: 'jury_id',
  conflict_brand: 'jury_id',
  declared_company: 'jury_id',
  declared_entry: 'jury_id',
  declared_brand: 'jury_id',
  recused: 'jury_id',
};

/**
 * The conflicts of interest between a juror and an entry, in a fixed order: the organisation rule
 * (the juror's company is the submittor's), the brand rule (the juror's company is the campaign's
 * brand), and each kind of declared conflict. Names compare by `companyKey` (case, punctuation and
 * legal forms ignored).
 */
export function conflictRules(juror: JurorConflictFacts, entry: EntryConflictFacts): AssignmentRule[] {
  const broken: AssignmentRule[] = [];
  if (sameCompany(juror.company, entry.company)) broken.push('conflict_company');
  if (sameCompany(juror.company, entry.brand)) broken.push('conflict_brand');
  if (juror.declared.some((d) => d.kind === 'company' && sameCompany(d.name, entry.company))) broken.push('declared_company');
  if (juror.declared.some((d) => d.kind === 'entry' && d.contest_id === entry.id)) broken.push('declared_entry');
  if (juror.declared.some((d) => d.kind === 'brand' && sameCompany(d.name, entry.brand))) broken.push('declared_brand');
  return broken;
}

/** Every rule the facts break, in a fixed order; empty when the assignment is allowed. */
export function assignmentViolations(facts: RuleFacts): AssignmentRule[] {
  const broken: AssignmentRule[] = [];
  if (facts.exam.status !== 'draft' && facts.exam.status !== 'open') broken.push('exam_locked');
  if (facts.contest.category_id !== facts.exam.category_id) broken.push('category');
  else if (!facts.contest.eligible) broken.push('not_eligible');
  if (!facts.juror.on_panel) broken.push('not_on_panel');
  if (!facts.juror.is_active) broken.push('inactive');
  broken.push(...conflictRules(facts.juror, facts.contest));
  if (facts.recused) broken.push('recused');
  return broken;
}
