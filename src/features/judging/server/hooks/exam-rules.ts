import { sql } from 'kysely';
import type { FieldError } from '../../../../shared/api-contract.js';
import type { BeforeWriteHook } from '../../../../shared/extension/server-hooks.js';

/**
 * Guards an examination's judging sheet: criterion keys are unique, the closing date is after the
 * opening date, and the criteria change only while the exam is a draft (422 on `criteria`).
 */
export const examRules: BeforeWriteHook = ({ data, previous, errors: fail }) => {
  const errors: FieldError[] = [];
  const criteria = data.criteria as Array<{ key: string }> | undefined;
  if (Array.isArray(criteria)) {
    const seen = new Set<string>();
    criteria.forEach((c, i) => {
      if (seen.has(c.key)) errors.push({ path: `criteria.${i}.key`, keyword: 'unique', messageKey: 'judging.errors.criterion_key_unique', params: {} });
      seen.add(c.key);
    });
    if (previous && previous.status !== 'draft' && JSON.stringify(previous.criteria ?? []) !== JSON.stringify(criteria)) {
      errors.push({ path: 'criteria', keyword: 'locked', messageKey: 'judging.errors.criteria_locked', params: { status: previous.status } });
    }
  }
  const opens = data.opens_at ?? previous?.opens_at;
  const closes = data.closes_at ?? previous?.closes_at;
  if (opens && closes && new Date(String(closes)).getTime() <= new Date(String(opens)).getTime()) {
    errors.push({ path: 'closes_at', keyword: 'after', messageKey: 'judging.errors.closes_before_opens', params: {} });
  }
  if (errors.length > 0) {
    const dates = errors.some((e) => e.path === 'closes_at');
    throw fail.validationFailed(errors, dates ? 'The closing date (closes_at) must be after the opening date (opens_at).' : undefined);
  }
};

/**
 * Refuses a second Round 1 exam for the same category and edition (409 `exam_duplicate_round`)
 * unless it says it is a parallel panel. Named after the hook that fills in the current edition, so
 * it sees the edition the exam will have.
 */
export const examDuplicateRound: BeforeWriteHook = async ({ data, previous, id, db, errors }) => {
  const pick = (field: string) => (field in data ? data[field] : previous?.[field]);
  if (Number(pick('round')) !== 1 || pick('parallel_panel') === true) return;
  const category = Number(pick('category_id'));
  if (!Number.isInteger(category)) return;
  const edition = pick('edition_id') ?? null;
  const other = (
    await sql<{ id: number; name: string }>`
      select id, name from exams where round = 1 and category_id = ${category} and edition_id is not distinct from ${edition}
        and id <> ${id ?? 0} order by id limit 1`.execute(db)
  ).rows[0];
  if (other) {
    throw errors.conflict(`Examination "${other.name}" (${other.id}) is already Round 1 of this category and edition; a second one must be a parallel panel.`, [
      {
        path: 'parallel_panel',
        keyword: 'exam_duplicate_round',
        messageKey: 'judging.errors.exam_duplicate_round',
        params: { exam_id: other.id, name: other.name },
      },
    ]);
  }
};
