import { sql } from 'kysely';
import type { EntityRegistry } from '../../../server/index.js';
import { entryCodesOf } from '../../judging/server.js';
import type { ExamModeration, ModerationGrade } from '../shared/results-contract.js';
import { gradeShape, readExam } from './exam-data.js';
import { liveResults } from './results.service.js';
import type { ExportDetails } from './results-export.js';
import type { EntityDb } from './tables.js';

const json = <T>(value: unknown, empty: T): T => {
  if (value === null || value === undefined) return empty;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return empty;
    }
  }
  return value as T;
};

/** The exam's criteria as moderation labels its columns (key, label, weight, maximum). */
export function criteriaOf(value: unknown): ExamModeration['criteria'] {
  const list = json<unknown>(value, []);
  if (!Array.isArray(list)) return [];
  return list
    .filter((c): c is Record<string, unknown> => !!c && typeof c === 'object' && typeof (c as { key?: unknown }).key === 'string')
    .map((c) => ({
      key: c.key as string,
      label: typeof c.label === 'string' && c.label ? c.label : (c.key as string),
      weight: Number(c.weight ?? 1),
      maximum: Number(c.maximum ?? 0),
    }));
}

interface GradeRow {
  id: number;
  contest_id: number;
  juror_id: number;
  scores: unknown;
  total: number;
  remarks: string | null;
  status: string | null;
  reopen_reason: string | null;
  submitted_at: Date | string | null;
}

/** Every grade of an exam with its per-criterion scores, remarks and reopen reason (drafts too). */
async function gradeRows(db: EntityDb, registry: EntityRegistry, examId: number): Promise<GradeRow[]> {
  const shape = gradeShape(registry);
  return shape
    ? (
        await sql<GradeRow>`select id, contest_id, ${sql.ref(shape.juror)} as juror_id, scores, ${sql.ref(shape.total)} as total, remarks,
            ${shape.status ? sql.ref(shape.status) : sql`null`} as status, reopen_reason, submitted_at
          from ${sql.table(shape.table)} where exam_id = ${examId} order by ${sql.ref(shape.juror)}, id`.execute(db)
      ).rows
    : [];
}

/** The per-juror export's details: the exam's criteria and each submitted grade's scores, remarks and reopen reason. */
export async function exportDetails(db: EntityDb, registry: EntityRegistry, examId: number): Promise<ExportDetails> {
  const exam = await readExam(db, registry, examId);
  const grades = new Map(
    (await gradeRows(db, registry, examId))
      .filter((g) => g.status !== 'draft')
      .map((g) => [`${g.contest_id}:${g.juror_id}`, { scores: json<Record<string, number>>(g.scores, {}), remarks: g.remarks, reopenReason: g.reopen_reason }]),
  );
  return { criteria: criteriaOf(exam.criteria), grades };
}

/**
 * An exam's moderation (`GET /api/exams/{id}/moderation`): the entries flagged for moderation
 * (spread above the threshold) and those with a grade an admin reopened that is not submitted
 * again, each with every juror's grade side by side: per-criterion scores, total, normalised
 * total, remarks, status and the reopen reason. Computed from the current grades (a finalised
 * exam's grades are locked, so they are the ones its snapshot was taken from). Entries carry
 * their contest id and their blind code in the exam (judging's `entryCodesOf`; null for an entry
 * no juror has been shown yet): admins see both.
 */
export async function examModeration(db: EntityDb, registry: EntityRegistry, examId: number): Promise<ExamModeration> {
  const exam = await readExam(db, registry, examId);
  const results = await liveResults(db, registry, examId);
  const names = new Map(results.jurors.map((j) => [j.jurorId, j.name]));
  const rows = await gradeRows(db, registry, examId);
  const codes = await entryCodesOf(
    db as unknown as Parameters<typeof entryCodesOf>[0],
    examId,
    results.entries.map((e) => e.contestId),
  );
  const reopened = new Set(rows.filter((g) => g.status === 'draft' && g.reopen_reason).map((g) => Number(g.contest_id)));
  const entries = results.entries
    .filter((e) => e.moderation || reopened.has(e.contestId))
    .map((e) => {
      const normalisedOf = new Map(e.grades.map((g) => [g.jurorId, g]));
      const grades: ModerationGrade[] = rows
        .filter((g) => Number(g.contest_id) === e.contestId)
        .map((g) => {
          const counted = normalisedOf.get(Number(g.juror_id));
          const status = g.status === 'draft' ? 'draft' : 'submitted';
          return {
            gradeId: Number(g.id),
            jurorId: Number(g.juror_id),
            juror: names.get(Number(g.juror_id)) ?? `#${g.juror_id}`,
            status,
            total: Number(g.total),
            normalised: status === 'submitted' ? (counted?.normalised ?? null) : null,
            raw: counted?.raw ?? null,
            scores: json<Record<string, number>>(g.scores, {}),
            remarks: g.remarks,
            reopenReason: g.reopen_reason,
            submittedAt: g.submitted_at ? new Date(g.submitted_at).toISOString() : null,
          };
        });
      return {
        contestId: e.contestId,
        code: codes.get(e.contestId) ?? null,
        campaign: e.campaign,
        position: e.position,
        rank: e.rank,
        score: e.score,
        mean: e.mean,
        spread: e.spread,
        flagged: e.moderation,
        grades,
      };
    });
  return {
    exam: { id: exam.id, name: exam.name, round: exam.round, status: exam.status, max_score: exam.max_score, ranking: exam.ranking },
    moderationThreshold: results.moderationThreshold,
    criteria: criteriaOf(exam.criteria),
    codes: true,
    entries,
  };
}
