import { sql } from 'kysely';
import type { FieldError } from '../../../../shared/api-contract.js';
import type { BeforeWriteHook } from '../../../../shared/extension/server-hooks.js';
import { type AssignmentRule, assignmentViolations, RULE_MESSAGES, RULE_PATHS } from '../../shared/assignment-rules.js';
import type { JudgingDb } from '../tables.js';

/** The ids of one assignment. */
export interface AssignmentIds {
  exam_id: number;
  contest_id: number;
  jury_id: number;
}

/** The rules the assignment would break, read from the database (missing records break nothing here: their foreign keys refuse them). */
export async function checkAssignment(db: JudgingDb, ids: AssignmentIds): Promise<AssignmentRule[]> {
  const { rows } = await sql<{
    e_category: number;
    e_round: number;
    e_status: string;
    c_category: number;
    c_company: string | null;
    j_round: number;
    j_active: boolean;
    j_company: string | null;
    recused: boolean;
  }>`
    select e.category_id as e_category, e.round as e_round, e.status as e_status,
           c.category_id as c_category, cu.company as c_company,
           j.round as j_round, j.is_active as j_active, j.company as j_company,
           exists (select 1 from assignments a where a.contest_id = c.id and a.jury_id = j.id and a.status = 'recused') as recused
    from exams e, contests c left join customers cu on cu.id = c.customer_id, juries j
    where e.id = ${ids.exam_id} and c.id = ${ids.contest_id} and j.id = ${ids.jury_id}`.execute(db);
  const row = rows[0];
  if (!row) return [];
  return assignmentViolations({
    exam: { category_id: row.e_category, round: row.e_round, status: row.e_status },
    contest: { category_id: row.c_category, company: row.c_company },
    juror: { round: row.j_round, is_active: row.j_active, company: row.j_company },
    recused: row.recused,
  });
}

/** The field errors and the message of a 422 naming every broken rule (`judging.rules.<rule>` on the field it concerns). */
export function ruleErrors(broken: readonly AssignmentRule[]): { errors: FieldError[]; message: string } {
  return {
    errors: broken.map((rule) => ({ path: RULE_PATHS[rule], keyword: rule, messageKey: `judging.rules.${rule}`, params: {} })),
    message: broken.map((rule) => RULE_MESSAGES[rule]).join(' '),
  };
}

/**
 * Refuses an assignment that breaks an eligibility or conflict-of-interest rule (422 naming each
 * rule), whatever path writes it: the form, the matrix or an import.
 */
export const assignmentRules: BeforeWriteHook = async ({ data, previous, db, errors }) => {
  const ids = { ...previous, ...data } as unknown as AssignmentIds;
  const broken = await checkAssignment(db, ids);
  if (broken.length > 0) {
    const { errors: fields, message } = ruleErrors(broken);
    throw errors.validationFailed(fields, message);
  }
};
