import type { ColumnType, Generated, Kysely } from 'kysely';

/**
 * Data in and out's own system tables (migrations 007-dataio, 008-dataio-job-state, 021-dataio-secrets and 025-dataio-file-parts), as
 * TypeScript sees them, and the entity tables an import writes, whose names come from the
 * descriptors at run time.
 */

/** Timestamps come back as Date; written as Date, ISO text or `now()`. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A jsonb column: read parsed, written as JSON text. */
type Json<T> = ColumnType<T, string | null, string | null>;

/** One import: the uploaded file, the mapping and fixes it runs with, its progress and its report. */
/**
 * An import job's stored table (the upload's rows as gzip CSV, write-only cells sealed: see
 * import-secrets.ts) in parts of about 256 KB, `seq` from 0; deleted when the job is done, and with
 * the job after the retention (PGlite reads bytea back as a Uint8Array, pg as a Buffer).
 */
export interface ImportJobPartsTable {
  job_id: number;
  seq: number;
  data: ColumnType<Uint8Array, Buffer, Buffer>;
}

export interface ImportJobsTable {
  id: Generated<number>;
  entity: string;
  /** `uploaded`, `running`, `done`, `failed` or `cancelled`; at most one `running` per entity (a partial unique index). */
  status: Generated<string>;
  /** `all` (refuse the file on one invalid row) or `valid` (import the others). */
  mode: Generated<string>;
  filename: string;
  /** No longer written: the table is kept in {@link ImportJobPartsTable} since 025-dataio-file-parts (always empty). */
  file: ColumnType<Uint8Array, Buffer, Buffer>;
  /** The sealed columns, `{"3": "password"}` (column index → write-only field); null when none. */
  secret_columns: Json<unknown>;
  mapping: Json<unknown>;
  fixes: Json<unknown>;
  total_rows: Generated<number>;
  done_rows: Generated<number>;
  created_rows: Generated<number>;
  updated_rows: Generated<number>;
  failed_rows: Generated<number>;
  report: Json<unknown>;
  /** A message key (`dataio.import.errors.interrupted`, `invalid_rows`...) once failed or cancelled. */
  error: string | null;
  user_id: number | null;
  created_at: ColumnType<Date, never, never>;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** While running: `reading`, `checking` or `writing`, when it began, and the heartbeat of the server running it. */
  phase: string | null;
  phase_started_at: Timestamp | null;
  progress_at: Timestamp | null;
  /** Set by a cancel sent to another server; the running server reads it within a heartbeat. */
  cancel_requested: Generated<boolean>;
}

/** A saved list view: the list's query under a name, the owner's own or shared with every admin. */
export interface SavedViewsTable {
  id: Generated<number>;
  entity: string;
  name: string;
  query: string;
  columns: Json<unknown>;
  shared: Generated<boolean>;
  user_id: number;
  created_at: ColumnType<Date, never, never>;
}

export interface DataioTables {
  import_jobs: ImportJobsTable;
  import_job_parts: ImportJobPartsTable;
  saved_views: SavedViewsTable;
}

/** The database as dataio's own queries take it. */
export type DataioDb = Kysely<DataioTables>;
/** A table named by a descriptor: its name is known at run time only, its columns are those of the entity's schema. */
export type EntityDb = Kysely<Record<string, Record<string, unknown>>>;

/** The app's database (or a transaction) seen with dataio's own tables. */
export const dataioDb = <DB>(db: Kysely<DB>): DataioDb => db as unknown as DataioDb;
/** The same connection (or transaction) seen with the entity tables. */
export const entityDb = <DB>(db: Kysely<DB>): EntityDb => db as unknown as EntityDb;
