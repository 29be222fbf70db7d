import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { FieldError } from '../../../shared/api-contract.js';

/** A stored upload: its columns, the server's guess of each column's field, its row count. */
export interface Upload {
  id: number;
  filename: string;
  headers: string[];
  mapping: Array<string | null>;
  total_rows: number;
}

/** One checked row of a preview. */
export interface PreviewRow {
  row: number;
  values: string[];
  errors: FieldError[];
  update: boolean;
}

/** A preview: every row checked with the forms' validator. */
export interface Preview {
  total_rows: number;
  invalid_rows: number;
  update_rows: number;
  rows: PreviewRow[];
}

/** An import job (see docs/architecture.md, "The import job"). */
export interface Job {
  id: number;
  status: 'uploaded' | 'running' | 'done' | 'failed' | 'cancelled';
  filename: string;
  phase?: 'reading' | 'checking' | 'writing';
  total_rows: number;
  done_rows: number;
  created_rows: number;
  updated_rows: number;
  failed_rows: number;
  rate?: number;
  seconds_left?: number | null;
  error: string | null;
  has_report: boolean;
}

/** Corrections typed into the preview: row number → field → value. */
export type Fixes = Record<string, Record<string, string>>;

/** Data I/O's query keys, every one under `['dataio']`. */
const keys = {
  all: ['dataio'] as const,
  jobs: (entity: string) => ['dataio', 'jobs', entity] as const,
  job: (id: number) => ['dataio', 'job', id] as const,
};

/** How often a running job's progress is read. */
const POLL_MS = 1000;

/** The import jobs of an entity, newest first (a running one is shown again when the screen opens). */
export const importJobsOptions = (entity: string) =>
  queryOptions({
    queryKey: keys.jobs(entity),
    queryFn: ({ signal }) => http.get<{ data: Job[] }>('/imports', { query: { entity }, signal }).then((answer) => answer.data),
    staleTime: 0,
  });

/** One job, read again every second while it runs; polling stops once it has finished. */
export const importJobOptions = (id: number) =>
  queryOptions({
    queryKey: keys.job(id),
    queryFn: ({ signal }) => http.get<{ data: Job }>(`/imports/${id}`, { signal }).then((answer) => answer.data),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
  });

/** The import's requests; each that changes a job answers it. */
export const dataioApi = {
  /** Stores a CSV or XLSX file for an import of `entity`. */
  upload: (entity: string, file: File) =>
    http.upload<{ data: Upload }>('/imports', file, { query: { entity, filename: file.name } }).then((answer) => answer.data),
  /** Checks every row with `mapping` and `fixes`. */
  preview: (uploadId: number, mapping: Array<string | null>, fixes: Fixes) =>
    http.post<{ data: Preview }>(`/imports/${uploadId}/preview`, { mapping, fixes }).then((answer) => answer.data),
  /** Starts the import (`all`: all or nothing; `valid`: the valid rows). */
  start: (uploadId: number, mapping: Array<string | null>, fixes: Fixes, mode: 'all' | 'valid') =>
    http.post<{ data: Job }>(`/imports/${uploadId}/start`, { mapping, fixes, mode }).then((answer) => answer.data),
  /** Asks a running job to stop. */
  cancel: (jobId: number) => http.post<{ data: Job }>(`/imports/${jobId}/cancel`).then((answer) => answer.data),
  /** A sample file of `entity`'s import, in `lang`. */
  sample: (entity: string, lang: string | undefined) => http.download(`/imports/sample/${entity}`, { query: { lang } }),
  /** The report of a job's rows not imported, in `lang`. */
  report: (jobId: number, lang: string | undefined) => http.download(`/imports/${jobId}/report`, { query: { lang } }),
};

/** Puts a job the server answered with (started, cancelled) in the cache, where its screen reads it. */
export function setImportJob(client: QueryClient, job: Job): void {
  client.setQueryData(keys.job(job.id), job);
}

/** Refreshes every import job shown. */
export function invalidateImports(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.all });
}
