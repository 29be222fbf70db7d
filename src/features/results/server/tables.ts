import type { ColumnType, Kysely } from 'kysely';

/**
 * The tables results read and write, as TypeScript sees them: its own system tables (migration
 * 005-results) typed column by column, and the entity tables (exams, grades, contests...) whose
 * names come from the descriptors at run time, seen as records.
 */

/** Set by the database when absent. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** An entry shortlisted into an exam (Round 2), from the Round 1 exam it was ranked in. */
export interface ExamEntriesTable {
  exam_id: number;
  contest_id: number;
  source_exam_id: number | null;
  added_by: number | null;
  created_at: CreatedAt;
}

/** An admin's award for one entry of an exam, replacing the rules' (`award_category_id` null: no award). */
export interface AwardOverridesTable {
  exam_id: number;
  contest_id: number;
  award_category_id: number | null;
  reason: string;
  user_id: number | null;
  created_at: CreatedAt;
}

/** A finalised exam's results, locked: answered instead of figures computed now (jsonb, written as JSON text). */
export interface ExamLocksTable {
  exam_id: number;
  results: ColumnType<unknown, string, string>;
  user_id: number | null;
  created_at: CreatedAt;
}

export interface ResultsTables {
  exam_entries: ExamEntriesTable;
  award_overrides: AwardOverridesTable;
  exam_locks: ExamLocksTable;
}

/** A table named by a descriptor: its name is known at run time only, its columns are those of the entity's schema. */
export type EntityTables = Record<string, Record<string, unknown>>;

/** The database as the results services take it: entity tables by their descriptor's name. */
export type EntityDb = Kysely<EntityTables>;
/** The same connection, typed with results' own tables. */
export type ResultsDb = Kysely<ResultsTables>;

/** The app's database (or a transaction) seen with the entity tables. */
export const entityDb = <DB>(db: Kysely<DB>): EntityDb => db as unknown as EntityDb;
/** The same connection (or transaction) seen with results' own tables. */
export const resultsDb = <DB>(db: Kysely<DB>): ResultsDb => db as unknown as ResultsDb;
