import { sql } from 'kysely';
import type { FieldError } from '../../../../shared/api-contract.js';
import type { BeforeWriteHook } from '../../../../shared/extension/server-hooks.js';
import { type AssignmentRule, assignmentViolations, RULE_MESSAGES, RULE_PATHS } from '../../shared/assignment-rules.js';
import { declaredConflicts } from '../conflicts.service.js';
import { isEligible } from '../eligibility.js';
import { ensureCodes } from '../entry-codes.js';
import { isOnPanel } from '../panels.service.js';
import type { JudgingDb } from '../tables.js';

/** The ids of one assignment. */
export interface AssignmentIds {
  exam_id: number;
  contest_id: number;
  jury_id: number;
}

/**
 * The rules the assignment would break, read from the database: eligibility (§17: the entry is one
 * the exam takes, the juror is active and on its panel) and every conflict of interest (company,
 * brand, declared, recused). Missing records break nothing here: their foreign keys refuse them.
 */
export async function checkAssignment(db: JudgingDb, ids: AssignmentIds): Promise<AssignmentRule[]> {
  const { rows } = await sql<{
    e_category: number;
    e_edition: number | null;
    e_round: number;
    e_status: string;
    c_category: number;
    c_company: string | null;
    c_brand: string | null;
    j_active: boolean;
    j_company: string | null;
    recused: boolean;
  }>`
    select e.category_id as e_category, e.edition_id as e_edition, e.round as e_round, e.status as e_status,
           c.category_id as c_category, cu.company as c_company, p.brand_name as c_brand,
           j.is_active as j_active, j.company as j_company,
           exists (select 1 from assignments a where a.contest_id = c.id and a.jury_id = j.id and a.status = 'recused') as recused
    from exams e, contests c left join customers cu on cu.id = c.customer_id left join campaigns p on p.id = c.campaign_id, juries j
    where e.id = ${ids.exam_id} and c.id = ${ids.contest_id} and j.id = ${ids.jury_id}`.execute(db);
  const row = rows[0];
  if (!row) return [];
  const exam = { id: ids.exam_id, category_id: row.e_category, edition_id: row.e_edition, round: row.e_round };
  const [eligible, onPanel, declared] = await Promise.all([
    isEligible(db, exam, ids.contest_id),
    isOnPanel(db, exam, ids.jury_id),
    declaredConflicts(db, [ids.jury_id]),
  ]);
  return assignmentViolations({
    exam: { category_id: row.e_category, status: row.e_status },
    contest: { id: ids.contest_id, category_id: row.c_category, company: row.c_company, brand: row.c_brand, eligible },
    juror: { is_active: row.j_active, company: row.j_company, on_panel: onPanel, declared: declared.get(ids.jury_id) ?? [] },
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
 * rule), whatever path writes it: the form, the matrix or an import. An allowed one gives its entry
 * a blind code in the exam (in the write's transaction).
 */
export const assignmentRules: BeforeWriteHook = async ({ data, previous, db, errors }) => {
  const ids = { ...previous, ...data } as unknown as AssignmentIds;
  const jdb = db as JudgingDb;
  const broken = await checkAssignment(jdb, ids);
  if (broken.length > 0) {
    const { errors: fields, message } = ruleErrors(broken);
    throw errors.validationFailed(fields, message);
  }
  const exam = await jdb.selectFrom('exams').select(['id', 'round']).where('id', '=', Number(ids.exam_id)).executeTakeFirst();
  if (exam) await ensureCodes(jdb, exam, [Number(ids.contest_id)]);
};
