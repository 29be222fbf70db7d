import { describe, expect, it } from 'vitest';
import { companyKey, sameCompany } from '../../src/features/judging/shared/company-key.js';
import { canMoveExam } from '../../src/features/judging/shared/exam-status.js';
import { weightedTotal } from '../../src/features/judging/shared/weighted-total.js';

describe('companyKey', () => {
  it.each([
    ['Nusantara Digital Sdn. Bhd.', 'nusantara digital'],
    ['PT. Maju Jaya, Tbk', 'maju jaya'],
    ['PT Maju Jaya (Persero) Tbk', 'maju jaya'],
    ['  KANCIL   kreatif  ', 'kancil kreatif'],
    ['Selat Communications Sdn Bhd', 'selat communications'],
    ['Smith & Jones Ltd.', 'smith and jones'],
    ['Sdn Bhd', ''],
    ['', ''],
    [null, ''],
  ])('reduces %j to %j', (name, key) => {
    expect(companyKey(name)).toBe(key);
  });

  it('matches names that differ by case, punctuation or legal form only', () => {
    expect(sameCompany('Maju-Jaya', 'PT MAJU JAYA TBK')).toBe(true);
    expect(sameCompany('Maju Jaya Digital', 'PT Maju Jaya')).toBe(false);
    expect(sameCompany(null, null)).toBe(false);
    expect(sameCompany('Bhd', 'Sdn Bhd')).toBe(false);
  });
});

describe('weightedTotal', () => {
  const criteria = [
    { key: 'idea', label: 'Idea', weight: 3, maximum: 10 },
    { key: 'craft', label: 'Craft', weight: 1, maximum: 5 },
  ];
  // max × Σ(w·s/m) / Σw
  it.each([
    [{ idea: 10, craft: 5 }, 100, 100],
    [{ idea: 8, craft: 4 }, 100, 80],
    [{ idea: 8 }, 100, 60],
    [{ idea: 7, craft: 2 }, 50, 31.25],
    [{ idea: 1, craft: 1 }, 30, 2.25 + 1.5],
  ])('scores %j out of %i as %d', (scores, max, total) => {
    expect(weightedTotal(criteria, scores, max)).toBe(total);
  });

  it('is 0 without criteria', () => {
    expect(weightedTotal([], { idea: 5 }, 100)).toBe(0);
  });
});

describe('exam status moves', () => {
  it('allows draft → open → closed → final and reopening a closed exam, nothing else', () => {
    const allowed = ['draft>open', 'open>closed', 'closed>open', 'closed>final'];
    for (const from of ['draft', 'open', 'closed', 'final']) {
      for (const to of ['draft', 'open', 'closed', 'final']) expect(canMoveExam(from, to), `${from}>${to}`).toBe(allowed.includes(`${from}>${to}`));
    }
  });
});
