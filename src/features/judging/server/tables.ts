import type { ColumnType, Generated, Kysely } from 'kysely';
import type { SystemTables } from '../../../server/index.js';
import type { Criterion } from '../shared/weighted-total.js';

/**
 * The tables judging's SQL names, as TypeScript sees them. They are entity tables, created and
 * synced from the descriptors in `entities/` (exam, assignment, grade, jury, applicant, and the
 * contest, customer and category it reads), so these interfaces follow those schemas: a field
 * added to a descriptor that judging uses must be added here too. Judging has no system table of
 * its own but the season's (migration 014): panels, declared conflicts and blind codes.
 */

/** Timestamps come back as Date and may be written as Date or ISO text. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** `created_at` / `updated_at`: set by the database, or by an update. */
type Managed = ColumnType<Date, Date | string | undefined, Date | string>;
/** A jsonb column: read parsed, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

export interface ExamsTable {
  id: Generated<number>;
  name: string;
  category_id: number;
  edition_id: number | null;
  round: number;
  max_score: number;
  parallel_panel: ColumnType<boolean, boolean | undefined, boolean>;
  /** Whether entrants see the jurors' remarks (anonymous) once results are published (the entrants feature reads it). */
  publish_remarks: ColumnType<boolean, boolean | undefined, boolean>;
  criteria: Json<Criterion[] | null>;
  /** `draft`, `open`, `closed` or `final` (`../shared/exam-status.ts`). */
  status: string;
  opens_at: Timestamp | null;
  closes_at: Timestamp | null;
  created_at: Managed;
  updated_at: Managed;
}

export interface AssignmentsTable {
  id: Generated<number>;
  exam_id: number;
  contest_id: number;
  jury_id: number;
  /** `assigned`, `in_progress`, `submitted` or `recused`. */
  status: string;
  recuse_reason: string | null;
  created_at: Managed;
  updated_at: Managed;
}

export interface GradesTable {
  id: Generated<number>;
  assignment_id: number | null;
  exam_id: number;
  contest_id: number;
  jury_id: number;
  scores: Json<Record<string, number> | null>;
  total: number | null;
  /** The rounded total (the demo's and older exports' whole-number score). */
  score: number;
  remarks: string | null;
  /** `draft` or `submitted`. */
  status: string;
  submitted_at: Timestamp | null;
  created_at: Managed;
  updated_at: Managed;
}

export interface JuriesTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  job_title: string | null;
  country: string;
  round: number;
  is_active: boolean;
  created_at: Managed;
  updated_at: Managed;
}

export interface ApplicantsTable {
  id: Generated<number>;
  name: string;
  email: string;
  company: string | null;
  country: string;
  expertise: Json<number[] | null>;
  /** `applied`, `approved` or `rejected`. */
  status: string;
  rejection_reason: string | null;
  jury_id: number | null;
  created_at: Managed;
  updated_at: Managed;
}

/** What judging reads of a contest: its category, submittor and status, and its blind content (jury-portal.service.ts). */
export interface ContestsTable {
  id: Generated<number>;
  category_id: number;
  edition_id: number | null;
  campaign_id: number | null;
  customer_id: number | null;
  status: string;
  created_at: Managed;
  updated_at: Managed;
}

/** What judging reads of a customer: the company a conflict of interest is decided on. */
export interface CustomersTable {
  id: Generated<number>;
  company: string | null;
}

/** What judging reads of a campaign: the brand a brand conflict is decided on. */
export interface CampaignsTable {
  id: Generated<number>;
  brand_name: string | null;
}

/** The jurors on an exam's panel (judging's migration 014). */
export interface ExamPanelsTable {
  exam_id: number;
  jury_id: number;
  created_at: Managed;
}

/** A declared conflict of interest: juror × company, entry or brand. */
export interface JuryConflictsTable {
  id: Generated<number>;
  jury_id: number;
  /** `company`, `entry` or `brand`. */
  kind: string;
  contest_id: number | null;
  name: string | null;
  /** `companyKey(name)`: what the rule compares. */
  name_key: string | null;
  reason: string;
  /** `admin` or `juror`. */
  declared_by: string;
  user_id: number | null;
  created_at: Managed;
}

/** An entry's blind code in an exam. */
export interface EntryCodesTable {
  exam_id: number;
  contest_id: number;
  code: string;
  created_at: Managed;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
}

/**
 * The tables judging writes and reads, with the server's system tables (`audit_log`, `users`; the
 * juror link `users.jury_id` is a role's link column, read by name: jury-portal.service.ts).
 */
export interface JudgingTables extends SystemTables {
  exams: ExamsTable;
  assignments: AssignmentsTable;
  grades: GradesTable;
  juries: JuriesTable;
  applicants: ApplicantsTable;
  contests: ContestsTable;
  customers: CustomersTable;
  categories: CategoriesTable;
  campaigns: CampaignsTable;
  exam_panels: ExamPanelsTable;
  jury_conflicts: JuryConflictsTable;
  entry_codes: EntryCodesTable;
}

/** The database as judging's services take it. */
export type JudgingDb = Kysely<JudgingTables>;

/** The app's database (or a hook's transaction) typed with judging's tables: the same connection, another view of it. */
export const judgingDb = (db: Kysely<SystemTables>): JudgingDb => db as unknown as JudgingDb;
