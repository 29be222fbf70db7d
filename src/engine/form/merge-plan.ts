/** One field of a three-way merge: the value the editor started from, theirs (saved meanwhile) and yours. */
export interface MergeField {
  field: string;
  original: unknown;
  theirs: unknown;
  yours: unknown;
  /** Who changed it since the original: nobody, one side (merged by itself), or both (ask). */
  changed: 'none' | 'theirs' | 'yours' | 'both' | 'same';
}

const norm = (value: unknown) => JSON.stringify(value === undefined || value === '' ? null : value);
const same = (a: unknown, b: unknown) => norm(a) === norm(b);

/**
 * Plans a three-way merge of a stale save: a field changed on one side only takes that
 * side's value; a field both sides changed to different values is `both` and must be chosen.
 *
 * @example planMerge(['name', 'status'], {name: 'A', status: 'x'}, {name: 'A', status: 'y'}, {name: 'B', status: 'x'})
 *   // name: yours ('B'), status: theirs ('y')
 */
export function planMerge(
  fields: readonly string[],
  original: Record<string, unknown>,
  theirs: Record<string, unknown>,
  yours: Record<string, unknown>,
): MergeField[] {
  return fields.map((field) => {
    const o = original[field];
    const th = theirs[field];
    const y = yours[field];
    const theirsChanged = !same(th, o);
    const yoursChanged = !same(y, o);
    let changed: MergeField['changed'] = 'none';
    if (theirsChanged && yoursChanged) changed = same(th, y) ? 'same' : 'both';
    else if (theirsChanged) changed = 'theirs';
    else if (yoursChanged) changed = 'yours';
    return { field, original: o, theirs: th, yours: y, changed };
  });
}

/** The merged body: each field's merged value, with `choices` deciding the fields both sides changed. */
export function mergedBody(plan: readonly MergeField[], choices: Record<string, 'theirs' | 'yours'>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of plan) {
    const value = f.changed === 'theirs' || (f.changed === 'both' && choices[f.field] === 'theirs') ? f.theirs : f.yours;
    if (value !== undefined) body[f.field] = value;
  }
  return body;
}
