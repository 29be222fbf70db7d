import { sql } from 'kysely';
import type { EntityRegistry } from '../../../server/index.js';
import { notFound } from '../../../server/index.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { type AssignmentInput, type EntryInput, type GradeInput, type RankingBasis, rankingOf } from '../shared/aggregate.js';
import { type EntityDb, resultsDb } from './tables.js';

/** The exam record the results need. */
export interface ExamRow {
  id: number;
  name: string;
  category_id: number;
  /** The exam's edition (season), when exams have one: its rounds follow each other within it. */
  edition_id?: number | null;
  round: number;
  max_score: number;
  status: string;
  criteria: unknown;
  /** The exam's ranking basis (the default when the exam has no `ranking`). */
  ranking: RankingBasis;
}

/** What an entrant is, for the results table and the export (never shown to jurors). */
export interface EntryInfo extends EntryInput {
  campaign: string | null;
  customer: string | null;
  company: string | null;
}

export interface ExamData {
  exam: ExamRow;
  category: string | null;
  entries: EntryInfo[];
  grades: GradeInput[];
  assignments: AssignmentInput[];
  jurorNames: Map<number, string>;
}

const has = (entity: LoadedEntity | undefined, field: string) => !!entity?.schema.properties?.[field];
const first = (entity: LoadedEntity | undefined, fields: string[]) => fields.find((f) => has(entity, f));

/**
 * How grades are stored, read from the grade entity's schema so the results follow the judging
 * module's shape: the total (`total`, else the demo's `score`), the juror (`juror_id`, else
 * `jury_id`), a `status` when grades have drafts, and when the grade was submitted.
 */
export function gradeShape(registry: EntityRegistry) {
  const grade = registry.byName.get('grade');
  if (!grade) return null;
  const juror = first(grade, ['juror_id', 'jury_id'])!;
  const jurorEntity = registry.byName.get(Object.values(grade.descriptor.relations).find((r) => r.field === juror)?.entity ?? 'jury');
  return {
    table: grade.descriptor.table,
    total: first(grade, ['total', 'score'])!,
    juror,
    status: has(grade, 'status') ? 'status' : null,
    submittedAt: first(grade, ['submitted_at', 'updated_at', 'created_at'])!,
    jurorTable: jurorEntity?.descriptor.table ?? null,
  };
}

const tableOf = (registry: EntityRegistry, name: string) => registry.byName.get(name)?.descriptor.table;

/** Reads one exam, or throws 404. */
export async function readExam(db: EntityDb, registry: EntityRegistry, examId: number): Promise<ExamRow> {
  const table = tableOf(registry, 'exam');
  const row = table ? await db.selectFrom(table).selectAll().where('id', '=', examId).executeTakeFirst() : undefined;
  if (!row) throw notFound(`Examination ${examId} does not exist.`);
  return {
    ...row,
    id: Number(row.id),
    category_id: Number(row.category_id),
    round: Number(row.round),
    max_score: Number(row.max_score),
    ranking: rankingOf(row.ranking),
  } as ExamRow;
}

/**
 * Loads everything the results of one exam are computed from: its entries (Round 1: the category's
 * contests that were submitted or approved; any round: the entries shortlisted into it and every
 * contest graded or assigned in it), their grades and assignments, and the jurors' names.
 */
export async function loadExamData(db: EntityDb, registry: EntityRegistry, examId: number): Promise<ExamData> {
  const exam = await readExam(db, registry, examId);
  const shape = gradeShape(registry);
  const categories = tableOf(registry, 'category');
  const category = categories
    ? (((await db.selectFrom(categories).select('name').where('id', '=', exam.category_id).executeTakeFirst())?.name as string | undefined) ?? null)
    : null;

  const grades: GradeInput[] = shape
    ? (
        await sql<{ contest_id: number; juror_id: number; total: number; status: string | null; submitted_at: Date | string }>`
          select contest_id, ${sql.ref(shape.juror)} as juror_id, ${sql.ref(shape.total)} as total,
            ${shape.status ? sql.ref(shape.status) : sql`null`} as status, ${sql.ref(shape.submittedAt)} as submitted_at
          from ${sql.table(shape.table)} where exam_id = ${examId} order by id`.execute(db)
      ).rows.map((g) => ({
        contestId: Number(g.contest_id),
        jurorId: Number(g.juror_id),
        total: Number(g.total),
        status: g.status === null || g.status === 'submitted' ? 'submitted' : 'draft',
        submittedAt: new Date(g.submitted_at).toISOString(),
      }))
    : [];

  const assignmentEntity = registry.byName.get('assignment');
  const assignmentJuror = first(assignmentEntity, ['juror_id', 'jury_id']);
  const assignments: AssignmentInput[] =
    assignmentEntity && assignmentJuror
      ? (
          await sql<{ contest_id: number; juror_id: number }>`select contest_id, ${sql.ref(assignmentJuror)} as juror_id
            from ${sql.table(assignmentEntity.descriptor.table)} where exam_id = ${examId}
            ${has(assignmentEntity, 'status') ? sql`and status <> 'recused'` : sql``}`.execute(db)
        ).rows.map((a) => ({ contestId: Number(a.contest_id), jurorId: Number(a.juror_id) }))
      : [];

  const contests = tableOf(registry, 'contest')!;
  // A Round 1 exam's entries are its edition's contests (when contests have an edition).
  const sameEdition = has(registry.byName.get('contest'), 'edition_id') ? sql`and c.edition_id is not distinct from ${exam.edition_id ?? null}` : sql``;
  const shortlisted = await resultsDb(db).selectFrom('exam_entries').select('contest_id').where('exam_id', '=', examId).execute();
  const ids = [...new Set([...grades.map((g) => g.contestId), ...assignments.map((a) => a.contestId), ...shortlisted.map((s) => Number(s.contest_id))])];
  const customers = tableOf(registry, 'customer');
  const campaigns = tableOf(registry, 'campaign');
  const rows = (
    await sql<{ id: number; created_at: Date | string; campaign: string | null; customer: string | null; company: string | null }>`
      select c.id, c.created_at,
        ${campaigns ? sql`(select p.name from ${sql.table(campaigns)} p where p.id = c.campaign_id)` : sql`null`} as campaign,
        ${customers ? sql`(select cu.name from ${sql.table(customers)} cu where cu.id = c.customer_id)` : sql`null`} as customer,
        ${customers ? sql`(select cu.company from ${sql.table(customers)} cu where cu.id = c.customer_id)` : sql`null`} as company
      from ${sql.table(contests)} c
      where ${exam.round === 1 ? sql`(c.category_id = ${exam.category_id} and c.status in ('submitted', 'approved') ${sameEdition})` : sql`false`}
        ${ids.length ? sql`or c.id in (${sql.join(ids)})` : sql``}
      order by c.id`.execute(db)
  ).rows;
  const entries = rows.map((r) => ({
    contestId: Number(r.id),
    submittedAt: new Date(r.created_at).toISOString(),
    campaign: r.campaign,
    customer: r.customer,
    company: r.company,
  }));

  const jurorIds = [...new Set([...grades.map((g) => g.jurorId), ...assignments.map((a) => a.jurorId)])];
  const jurorNames = new Map<number, string>();
  if (shape?.jurorTable && jurorIds.length) {
    const named = await sql<{ id: number; name: string }>`select id, name from ${sql.table(shape.jurorTable)} where id in (${sql.join(jurorIds)})`.execute(db);
    for (const j of named.rows) jurorNames.set(Number(j.id), j.name);
  }
  return { exam, category, entries, grades, assignments, jurorNames };
}
