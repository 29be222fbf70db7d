import { describe, expect, it } from 'vitest';
import { assignmentViolations, conflictRules, type RuleFacts } from '../../src/features/judging/shared/assignment-rules.js';
import { blindCode, CODE_ALPHABET, isBlindCode } from '../../src/features/judging/shared/blind-code.js';

const entry = { id: 7, company: 'PT Maju Jaya Tbk', brand: 'Kopi Kenangan' };

describe('conflictRules', () => {
  it('finds the organisation and the brand rule by company key', () => {
    expect(conflictRules({ company: 'maju-jaya', declared: [] }, entry)).toEqual(['conflict_company']);
    expect(conflictRules({ company: 'KOPI KENANGAN Sdn. Bhd.', declared: [] }, entry)).toEqual(['conflict_brand']);
    expect(conflictRules({ company: 'Kopi', declared: [] }, entry)).toEqual([]);
    expect(conflictRules({ company: null, declared: [] }, { ...entry, brand: null })).toEqual([]);
  });

  it('finds each kind of declared conflict, and only for its own target', () => {
    const declared = [
      { kind: 'company' as const, contest_id: null, name: 'Maju Jaya' },
      { kind: 'entry' as const, contest_id: 7, name: null },
      { kind: 'brand' as const, contest_id: null, name: 'kopi kenangan' },
    ];
    expect(conflictRules({ company: 'Elsewhere', declared }, entry)).toEqual(['declared_company', 'declared_entry', 'declared_brand']);
    expect(conflictRules({ company: 'Elsewhere', declared }, { id: 8, company: 'Other Co', brand: 'Other Brand' })).toEqual([]);
  });
});

describe('assignmentViolations', () => {
  const facts: RuleFacts = {
    exam: { category_id: 1, status: 'open' },
    contest: { id: 7, category_id: 1, company: 'A Co', brand: null, eligible: true },
    juror: { is_active: true, company: 'B Co', on_panel: true, declared: [] },
    recused: false,
  };

  it('allows an eligible entry and a juror on the panel without conflicts', () => {
    expect(assignmentViolations(facts)).toEqual([]);
  });

  it('names an ineligible entry, a juror off the panel, and keeps the category rule apart', () => {
    expect(assignmentViolations({ ...facts, contest: { ...facts.contest, eligible: false } })).toEqual(['not_eligible']);
    expect(assignmentViolations({ ...facts, contest: { ...facts.contest, category_id: 2, eligible: false } })).toEqual(['category']);
    expect(assignmentViolations({ ...facts, juror: { ...facts.juror, on_panel: false, is_active: false } })).toEqual(['not_on_panel', 'inactive']);
  });
});

describe('blindCode', () => {
  it('is the round prefix and five characters of the unambiguous alphabet', () => {
    expect(blindCode(1, () => 0)).toBe('R1-22222');
    expect(blindCode(2, () => 0.999)).toBe('R2-ZZZZZ');
    let i = 0;
    const code = blindCode(1, () => (i++ % CODE_ALPHABET.length) / CODE_ALPHABET.length);
    expect(isBlindCode(code)).toBe(true);
    expect(CODE_ALPHABET).not.toMatch(/[01ILO]/);
    expect(isBlindCode('R1-7K3Q0')).toBe(false);
  });
});
