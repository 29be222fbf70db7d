import { describe, expect, it } from 'vitest';
import { mergedBody, planMerge } from '../../src/engine/form/merge-plan.js';

describe('planMerge', () => {
  const original = { name: 'Best Film', description: 'The best film.', status: 'active', prize: 10 };
  const fields = ['name', 'description', 'status', 'prize'];

  it('takes each side where only that side changed a field, and asks where both changed it differently', () => {
    const theirs = { ...original, description: 'The best feature film.', prize: 20 };
    const yours = { ...original, name: 'Best Feature Film', prize: 30 };
    const plan = planMerge(fields, original, theirs, yours);
    expect(plan.map((f) => [f.field, f.changed])).toEqual([
      ['name', 'yours'],
      ['description', 'theirs'],
      ['status', 'none'],
      ['prize', 'both'],
    ]);
    expect(mergedBody(plan, { prize: 'theirs' })).toEqual({ name: 'Best Feature Film', description: 'The best feature film.', status: 'active', prize: 20 });
    expect(mergedBody(plan, { prize: 'yours' })).toMatchObject({ prize: 30 });
  });

  it('treats the same new value on both sides as no conflict, and empty text as no value', () => {
    const plan = planMerge(['name', 'note'], { name: 'A' }, { name: 'B', note: '' }, { name: 'B' });
    expect(plan.map((f) => f.changed)).toEqual(['same', 'none']);
    expect(mergedBody(plan, {})).toEqual({ name: 'B' });
  });
});
