import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { AppError, badRequest, conflict, type EntityRegistry, forbidden, notFound, type SystemTables, translate } from '../../../server/index.js';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { csvSafe, csvSafeValue } from './csv-safe.js';
import { fieldLabelKey, type Language } from './export-rows.js';
import { dataRows, importHeaders, MAX_IMPORT_BYTES, piecesOf, readRows, tableWriter, timeSlicer, tooLarge } from './import-file.js';
import {
  failStaleImports,
  type ImportMode,
  type LiveProgress,
  liveImports,
  type ReportRow,
  runImport,
  STALE_SECONDS,
  startHeartbeat,
  storedByKey,
} from './import-job.js';
import { checkFixes, checkMapping, createRowChecker, guessMapping, importConfigOf, type SecretColumns } from './import-rows.js';
import { checkSecretMapping, createSealer, maskValues, secretColumnsFrom, secretColumnsJson, secretColumnsOf, storableFixes } from './import-secrets.js';
import { type DataioDb, dataioDb, entityDb } from './tables.js';

/** Rows the preview shows besides the invalid ones. */
const PREVIEW_ROWS = 20;
/** Invalid rows the preview lists at most. */
const PREVIEW_INVALID = 500;
/** Rows of an upload read, sealed and compressed at a time. */
const UPLOAD_BATCH = 1000;
/** How long a cancel sent to another server's job waits for it to stop before answering. */
const CANCEL_WAIT_MS = (STALE_SECONDS + 5) * 1000;

/** An import job's row, without its file, mapping and fixes. */
export interface JobRow {
  id: number;
  entity: string;
  status: string;
  mode: string;
  filename: string;
  total_rows: number;
  done_rows: number;
  created_rows: number;
  updated_rows: number;
  failed_rows: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  phase: string | null;
  phase_started_at: Date | null;
  progress_at: Date | null;
  cancel_requested: boolean;
  report?: unknown;
}

/** A job with what its preview, start and report read. */
type FullJob = JobRow & { file?: Buffer[]; mapping?: unknown; fixes?: unknown; secret_columns?: unknown };

const JOB_COLUMNS = [
  'id',
  'entity',
  'status',
  'mode',
  'filename',
  'total_rows',
  'done_rows',
  'created_rows',
  'updated_rows',
  'failed_rows',
  'error',
  'created_at',
  'started_at',
  'finished_at',
  'phase',
  'phase_started_at',
  'progress_at',
  'cancel_requested',
] as const;

/** A job's stored table; 409 when it is gone (the job was done, or stored before 021-dataio-secrets emptied it). */
function fileOf(job: FullJob): Buffer[] {
  if (!job.file || job.file.length === 0) {
    throw new AppError(409, 'CONFLICT', 'The file of this import is no longer kept; upload it again.', [
      { path: 'file', keyword: 'gone', messageKey: 'dataio.import.errors.file_gone', params: {} },
    ]);
  }
  return job.file;
}

/** Whether a request body is a stream of bytes (an upload as it arrives). */
function isByteStream(value: unknown): value is Readable {
  return value instanceof Readable;
}

/**
 * An upload's bytes as they arrive, for its reader (see {@link ImportService.upload}): taken from
 * the request as fast as they come, without waiting for the reader (the request must be received
 * within the server's request timeout, while reading, checking and sealing 200,000 rows may take
 * longer), and dropped once read, so at most the file is held once. Refused (413) as soon as they
 * pass {@link MAX_IMPORT_BYTES}, (400) when there are none. A reader that stops early (a refused
 * file) leaves the request paused, not destroyed, so the refusal is still answered on its
 * connection (Node discards the rest).
 */
async function* spooled(source: Readable): AsyncGenerator<Uint8Array> {
  const queue: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const woken = () => {
    wake?.();
    wake = undefined;
  };
  const onData = (chunk: Uint8Array) => {
    length += chunk.length;
    if (length > MAX_IMPORT_BYTES) {
      failure ??= tooLarge();
      source.pause();
      queue.length = 0;
    } else queue.push(chunk);
    woken();
  };
  const onEnd = () => {
    ended = true;
    woken();
  };
  const onError = (error: unknown) => {
    failure ??= error;
    woken();
  };
  const onClose = () => {
    if (!ended) failure ??= badRequest('The upload was interrupted before its end.');
    woken();
  };
  source.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  try {
    for (;;) {
      if (failure) throw failure;
      const chunk = queue.shift();
      if (chunk) yield chunk;
      else if (ended) break;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
    if (length === 0) throw badRequest('Send the file as the request body (application/octet-stream).');
  } finally {
    source.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    if (!ended) source.pause();
    queue.length = 0;
  }
}

/** Bytes given whole (a caller in the server's own code): the same limits as {@link spooled}. */
async function* given(bytes: Buffer): AsyncGenerator<Uint8Array> {
  if (bytes.length === 0) throw badRequest('Send the file as the request body (application/octet-stream).');
  if (bytes.length > MAX_IMPORT_BYTES) throw tooLarge();
  yield* piecesOf(bytes);
}

/** How long import jobs (their stored tables and reports) are kept: `IMPORT_RETENTION_DAYS`, default 30. */
export function retentionDays(env: Record<string, string | undefined> = process.env): number {
  const days = Number(env.IMPORT_RETENTION_DAYS ?? 30);
  return Number.isFinite(days) && days > 0 ? days : 30;
}

/** What a request names: the caller's role (permissions) and, for the writes, who and from where. */
export interface ImportCaller {
  role: string | undefined;
  userId?: number | null;
  ip?: string | null;
}

/** The body of a preview or a start: the column mapping, the typed fixes, and (start) the mode. */
export interface ImportBody {
  mapping?: unknown;
  fixes?: unknown;
  mode?: unknown;
}

/** A CSV file to send: its text (with a byte-order mark) and its name. */
export interface CsvFile {
  body: string;
  fileName: string;
}

/**
 * A job as the API shows it, the same from every server: while it runs, its phase, rows done,
 * rate and seconds left, from this server's live counters when it runs here, else from the job's
 * row (which its server's heartbeat renews every second).
 */
export function jobView(job: JobRow) {
  const live = liveImports.get(job.id);
  const view: Record<string, unknown> = { ...job, has_report: job.failed_rows > 0 };
  for (const key of ['report', 'phase_started_at', 'progress_at']) delete view[key];
  if (job.status !== 'running') {
    view.phase = null;
    return view;
  }
  const progress = live
    ? { phase: live.phase, done: live.done, total: live.total, seconds: (Date.now() - live.startedAt) / 1000 }
    : {
        phase: job.phase ?? 'reading',
        done: job.done_rows,
        total: job.total_rows,
        seconds: job.phase_started_at && job.progress_at ? (new Date(job.progress_at).getTime() - new Date(job.phase_started_at).getTime()) / 1000 : 0,
      };
  const rate = progress.done / Math.max(0.001, progress.seconds);
  Object.assign(view, {
    phase: progress.phase,
    done_rows: progress.done,
    total_rows: progress.total,
    rate: Math.round(rate),
    seconds_left: rate > 0 ? Math.ceil((progress.total - progress.done) / rate) : null,
  });
  return view;
}

/**
 * Imports (see docs/architecture.md, "The import job"), with no HTTP in them: uploads, previews,
 * starts and follows jobs, cancels them (here, or on another server through the job's row), and
 * writes their report and an entity's sample file. One per app: it knows the jobs this server
 * runs. Every call checks the entity's create permission (update too when it updates by key).
 */
export class ImportService {
  private readonly db: DataioDb;
  /** The rows of the jobs this server runs, as they were when they started. */
  private readonly runningHere = new Map<number, JobRow>();

  constructor(private readonly deps: { db: Kysely<SystemTables>; registry: EntityRegistry; log: FastifyBaseLogger }) {
    this.db = dataioDb(deps.db);
  }

  /**
   * A job left running by a server that stopped never committed: its rows are not in the tables.
   * `all` (PGlite: one server, so every running job is such a job) fails every running job; on
   * PostgreSQL other servers may be running theirs, so only jobs whose heartbeat stopped.
   */
  failInterrupted(all: boolean): Promise<void> {
    return failStaleImports(this.db, all);
  }

  /**
   * Deletes the jobs (their tables and reports) that ended, or were uploaded, more than `days`
   * ago; a running job is never touched. Answers how many went.
   */
  async expire(days = retentionDays()): Promise<number> {
    const result = await this.db
      .deleteFrom('import_jobs')
      .where('status', '!=', 'running')
      .where(sql<boolean>`coalesce(finished_at, created_at) < now() - make_interval(secs => ${Math.round(days * 86_400)})`)
      .executeTakeFirst();
    return Number(result.numDeletedRows ?? 0);
  }

  /** Cancels the jobs this server runs and waits for them to stop (the server is closing). */
  async stopAll(): Promise<void> {
    for (const live of liveImports.values()) live.cancelled = true;
    await Promise.allSettled([...liveImports.values()].map((live) => live.finished));
  }

  /** The importable entity `name`, when the caller may import it (404 when it is not importable, 403 without the permission). */
  importable(name: unknown, caller: ImportCaller): LoadedEntity {
    const entity = typeof name === 'string' ? this.deps.registry.byName.get(name) : undefined;
    const config = importConfigOf(entity);
    if (!canPerform(entity!, 'create', caller.role) || (config.key && !canPerform(entity!, 'update', caller.role))) throw forbidden();
    return entity!;
  }

  /**
   * Stores an uploaded file as a job: its columns, the guessed mapping, the row count and the first
   * rows. `file` is the request's body as it streams (or bytes): it is read, checked, sealed and
   * compressed a batch of rows at a time as it arrives, so no copy of the file or of its rows is
   * ever made; at most the bytes not read yet wait (see {@link spooled}), and the compressed table
   * (an XLSX workbook is gathered first, within {@link MAX_IMPORT_BYTES}: its index is at its end).
   */
  async upload(entityName: unknown, file: unknown, filename: unknown, caller: ImportCaller) {
    const entity = this.importable(entityName, caller);
    const source = Buffer.isBuffer(file) ? given(file) : isByteStream(file) ? spooled(file) : undefined;
    if (!source) throw badRequest('Send the file as the request body (application/octet-stream).');
    const name = String(filename ?? 'upload').slice(0, 200);
    const table = tableWriter();
    let headers: string[] | undefined;
    let secretColumns: SecretColumns = new Map();
    let seal: (rows: string[][]) => Promise<string[][]> = async (rows) => rows;
    const sample: string[][] = [];
    let total = 0;
    let batch: string[][] = [];
    // Not the upload but its table is kept, write-only cells sealed (hashed) first: no password
    // reaches the job's row (see import-secrets.ts).
    const flush = async () => {
      const rows = await seal(batch);
      batch = [];
      await table.write(rows);
    };
    try {
      for await (const row of readRows(source, { gzipLimit: MAX_IMPORT_BYTES })) {
        if (!headers) {
          headers = row;
          secretColumns = secretColumnsOf(entity, headers);
          seal = createSealer(entity, headers, secretColumns, entityDb(this.db));
          await table.write([headers]);
          continue;
        }
        total++;
        // Sealed in place: the sample keeps its first rows and is masked once they are sealed.
        if (sample.length < 5) sample.push(row);
        batch.push(row);
        if (batch.length >= UPLOAD_BATCH) await flush();
      }
      await flush();
    } catch (error) {
      table.discard();
      throw error;
    }
    const parts = await table.end();
    // The job and its table's parts in one transaction, a part (about 256 KB) per statement: one
    // parameter of the whole table would be copied whole by the driver, holding other requests.
    const job = await this.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('import_jobs')
        .values({
          entity: entity.descriptor.name,
          filename: name,
          file: Buffer.alloc(0),
          secret_columns: secretColumns.size > 0 ? secretColumnsJson(secretColumns) : null,
          total_rows: total,
          user_id: caller.userId ?? null,
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      for (const [seq, data] of parts.entries()) {
        // Sent as base64 text and decoded by the database: PGlite parses a bytea parameter's hex
        // form about 15 times slower (500 ms a MB, holding the event loop), the same SQL on both.
        await trx
          .insertInto('import_job_parts')
          .values({ job_id: created.id, seq, data: sql<Buffer>`decode(${data.toString('base64')}, 'base64')` })
          .execute();
      }
      return created;
    });
    return {
      id: job.id,
      filename: name,
      headers: headers!,
      mapping: guessMapping(entity, headers!),
      total_rows: total,
      sample: sample.map((values) => maskValues(values, secretColumns)),
    };
  }

  /** The entity's ten latest jobs that ran (a closed browser finds its import again). */
  async recent(entityName: unknown, caller: ImportCaller) {
    const entity = this.importable(entityName, caller);
    await failStaleImports(this.db);
    const jobs = (await this.db
      .selectFrom('import_jobs')
      .select([...JOB_COLUMNS])
      .where('entity', '=', entity.descriptor.name)
      .where('status', '!=', 'uploaded')
      .orderBy('id', 'desc')
      .limit(10)
      .execute()) as JobRow[];
    return jobs.map(jobView);
  }

  /** A job by the id in its path (400 when malformed, 404 when missing), with its entity; a job whose server stopped is failed first. */
  private async load(rawId: string, caller: ImportCaller, withFile = false): Promise<{ job: FullJob; entity: LoadedEntity }> {
    if (!/^[1-9]\d{0,9}$/.test(rawId)) throw badRequest('Invalid import ID');
    const job = (await this.db
      .selectFrom('import_jobs')
      .select([...JOB_COLUMNS, ...(withFile ? (['mapping', 'fixes', 'report', 'secret_columns'] as const) : [])])
      .select(sql<number>`(select count(*) from import_job_parts p where p.job_id = import_jobs.id)`.as('file_parts'))
      .where('id', '=', Number(rawId))
      .executeTakeFirst()) as (FullJob & { file_parts: number | string | null }) | undefined;
    if (!job) throw notFound('Import not found.');
    const stale = !job.progress_at || Date.now() - new Date(job.progress_at).getTime() > STALE_SECONDS * 1000;
    if (job.status === 'running' && !liveImports.has(job.id) && stale) {
      await failStaleImports(this.db);
      return this.load(rawId, caller, withFile);
    }
    const entity = this.importable(job.entity, caller);
    const parts = Number(job.file_parts ?? 0);
    delete (job as { file_parts?: unknown }).file_parts;
    if (withFile) job.file = await this.readFile(job.id, parts);
    return { job, entity };
  }

  /**
   * A job's stored table, its parts read one per statement and never joined: one value of tens of
   * MB would be decoded and copied in one go by the driver, holding every other request.
   */
  private async readFile(id: number, parts: number): Promise<Buffer[]> {
    const read: Buffer[] = [];
    for (let seq = 0; seq < parts; seq++) {
      // Read as base64 text, as it was written (see upload): PGlite turns bytea into bytes slowly.
      const row = await this.db
        .selectFrom('import_job_parts')
        .select(sql<string>`encode(data, 'base64')`.as('data'))
        .where('job_id', '=', id)
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (row?.data) read.push(Buffer.from(row.data, 'base64'));
    }
    return read;
  }

  /** Every row checked by the forms' validator with the mapping and fixes: the first rows and the invalid ones (each invalid cell with its message key). */
  async preview(rawId: string, body: ImportBody, caller: ImportCaller) {
    const { job, entity } = await this.load(rawId, caller, true);
    // The stored table is read as a stream, once per pass: its rows are never all held at once.
    const file = fileOf(job);
    const headers = await importHeaders(file);
    const secretColumns = secretColumnsFrom(job.secret_columns);
    const mapping = checkMapping(entity, body.mapping, headers.length);
    checkSecretMapping(entity, mapping, secretColumns);
    const fixes = checkFixes(entity, body.fixes, job.total_rows);
    const config = importConfigOf(entity);
    // Every loop over the rows gives other requests a turn every few milliseconds.
    const pause = timeSlicer();
    const keyChecker = createRowChecker(entity, mapping, new Map(), secretColumns);
    const keys: string[] = [];
    if (config.key) {
      let i = 0;
      for await (const values of dataRows(file)) {
        const key = keyChecker.keyOf(values, fixes[String(++i)]);
        if (key !== undefined) keys.push(key);
        await pause();
      }
    }
    const existing = config.key ? await storedByKey(entity, config.key, keys, entityDb(this.db)) : new Map();
    keys.length = 0;
    const checker = createRowChecker(entity, mapping, existing, secretColumns);
    const shown: Array<{ row: number; values: string[]; errors: unknown[]; update: boolean }> = [];
    let invalid = 0;
    let updates = 0;
    let total = 0;
    for await (const values of dataRows(file)) {
      const i = total++;
      const checked = checker.check(values, i + 1, fixes[String(i + 1)]);
      const update = checked.id !== undefined;
      if (update) updates++;
      if (checked.errors.length > 0) invalid++;
      if (i < PREVIEW_ROWS || (checked.errors.length > 0 && invalid <= PREVIEW_INVALID))
        shown.push({ row: i + 1, values: maskValues(values, secretColumns), errors: checked.errors, update });
      await pause();
    }
    return { total_rows: total, invalid_rows: invalid, update_rows: updates, rows: shown };
  }

  /** Runs the job on this server (one running import per entity: 409 while another runs); answers it running. */
  async start(rawId: string, body: ImportBody, caller: ImportCaller) {
    const { job, entity } = await this.load(rawId, caller, true);
    if (!['uploaded', 'failed', 'cancelled'].includes(job.status)) throw conflict('This import has already run.');
    const mode = (body.mode ?? 'all') as ImportMode;
    if (mode !== 'all' && mode !== 'valid') throw badRequest('The mode must be all or valid.');
    const headers = await importHeaders(fileOf(job));
    const secretColumns = secretColumnsFrom(job.secret_columns);
    const mapping = checkMapping(entity, body.mapping, headers.length);
    checkSecretMapping(entity, mapping, secretColumns);
    const fixes = checkFixes(entity, body.fixes, job.total_rows);
    await failStaleImports(this.db);
    try {
      await this.db
        .updateTable('import_jobs')
        .set({
          status: 'running',
          mode,
          mapping: JSON.stringify(mapping),
          fixes: JSON.stringify(storableFixes(entity, fixes)),
          started_at: sql<Date>`now()`,
          finished_at: null,
          error: null,
          report: null,
          phase: 'reading',
          phase_started_at: sql<Date>`now()`,
          progress_at: sql<Date>`now()`,
          cancel_requested: false,
        })
        .where('id', '=', job.id)
        .execute();
    } catch (error) {
      if ((error as { code?: string }).code === '23505') {
        throw new AppError(409, 'CONFLICT', 'Another import of this entity is running; wait for it to finish.', [
          { path: '', keyword: 'running', messageKey: 'dataio.import.errors.running', params: {} },
        ]);
      }
      throw error;
    }
    const live: LiveProgress = { phase: 'reading', done: 0, total: job.total_rows, startedAt: Date.now(), cancelled: false, finished: Promise.resolve() };
    liveImports.set(job.id, live);
    const { file: _file, mapping: _mapping, fixes: _fixes, secret_columns: _secret, ...row } = job;
    this.runningHere.set(job.id, { ...row, status: 'running', mode, error: null, finished_at: null });
    const stopHeartbeat = startHeartbeat(this.db, job.id, live);
    live.finished = runImport(
      { jobId: job.id, entity, file: job.file!, mapping, fixes, secretColumns, mode, userId: caller.userId ?? null, ip: caller.ip ?? null },
      { db: this.deps.db, registry: this.deps.registry },
      live,
    )
      .catch((error: unknown) => this.deps.log.error({ err: error, job: job.id }, 'import failed'))
      .finally(() => {
        stopHeartbeat();
        liveImports.delete(job.id);
        this.runningHere.delete(job.id);
      });
    return jobView({ ...job, status: 'running', phase: 'reading' });
  }

  /**
   * A job's progress. A job running here is answered from memory: on PGlite its write transaction
   * holds the only connection, and the progress must still move.
   */
  async progress(rawId: string, caller: ImportCaller) {
    const here = this.runningHere.get(Number(rawId));
    if (here) {
      this.importable(here.entity, caller);
      return jobView(here);
    }
    const { job } = await this.load(rawId, caller);
    return jobView(job);
  }

  /**
   * Cancels a running job: here when it runs here; otherwise writes the request to the job's row,
   * which its server reads within a heartbeat, and waits (up to CANCEL_WAIT_MS) for it to stop.
   */
  async cancel(rawId: string, caller: ImportCaller) {
    const { job } = await this.load(rawId, caller);
    if (job.status !== 'running') throw conflict('This import is not running.');
    const live = liveImports.get(job.id);
    if (live) {
      live.cancelled = true;
      await live.finished;
    } else {
      await this.db.updateTable('import_jobs').set({ cancel_requested: true }).where('id', '=', job.id).where('status', '=', 'running').execute();
      const deadline = Date.now() + CANCEL_WAIT_MS;
      while (Date.now() < deadline && (await this.load(rawId, caller)).job.status === 'running') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { job: after } = await this.load(rawId, caller);
    return jobView(after);
  }

  /** The rows a job did not import and why, as a CSV in `language` (404 when it has no report). */
  async report(rawId: string, language: Language, caller: ImportCaller): Promise<CsvFile> {
    const { job, entity } = await this.load(rawId, caller, true);
    const report = job.report as { headers: string[]; rows: ReportRow[] } | null | undefined;
    if (!report) throw notFound('This import has no report.');
    const label = (field: string) => translate(language, fieldLabelKey(entity, field));
    const describe = (row: ReportRow) =>
      row.errors
        .map((error) => {
          const params = Object.fromEntries(Object.entries(error.params ?? {}).map(([k, v]) => [k, String(v)]));
          return `${error.path ? `${label(error.path)}: ` : ''}${translate(language, error.messageKey, params)}`;
        })
        .join('; ');
    const table = [
      [translate(language, 'dataio.import.report.row'), ...report.headers, translate(language, 'dataio.import.report.errors')],
      ...report.rows.map((row) => [row.row, ...report.headers.map((_h, i) => row.values[i] ?? ''), describe(row)]),
    ];
    return { body: `\ufeff${stringify(table.map((row) => row.map(csvSafeValue)))}`, fileName: `import-${job.id}-report.csv` };
  }

  /** A sample file of the entity's import: its fields' labels in `language`, then the descriptor's sample rows. */
  sample(entityName: unknown, language: Language, caller: ImportCaller): CsvFile {
    const entity = this.importable(entityName, caller);
    const config = importConfigOf(entity);
    const fields = config.fields.filter((field) => !entity.descriptor.comparisons.some((rule) => rule.field === field && rule.operator === 'eq'));
    const table = [
      fields.map((field) => csvSafe(translate(language, fieldLabelKey(entity, field)))),
      ...(config.sample ?? []).map((row) => fields.map((field) => csvSafeValue(row[field] ?? ''))),
    ];
    return {
      body: `\ufeff${stringify(table, { cast: { boolean: (value: boolean) => String(value) } })}`,
      fileName: `${entity.descriptor.endpoint}-sample.csv`,
    };
  }
}
