import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { translate } from '../../../server/index.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../../server/index.js';
import { exportLanguage, fieldLabelKey } from './export-rows.js';
import { importHeaders, MAX_IMPORT_BYTES, parseImportFile, tooLarge } from './import-file.js';
import {
  failStaleImports,
  type ImportMode,
  liveImports,
  type LiveProgress,
  type ReportRow,
  runImport,
  STALE_SECONDS,
  startHeartbeat,
  storedByKey,
} from './import-job.js';
import { checkFixes, checkMapping, createRowChecker, guessMapping, importConfigOf } from './import-rows.js';

/** Rows the preview shows besides the invalid ones. */
const PREVIEW_ROWS = 20;
/** Invalid rows the preview lists at most. */
const PREVIEW_INVALID = 500;
/** How long a cancel sent to another server's job waits for it to stop before answering. */
const CANCEL_WAIT_MS = (STALE_SECONDS + 5) * 1000;

interface JobRow {
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

const JOB_COLUMNS = [
  'id', 'entity', 'status', 'mode', 'filename', 'total_rows', 'done_rows', 'created_rows', 'updated_rows', 'failed_rows', 'error',
  'created_at', 'started_at', 'finished_at', 'phase', 'phase_started_at', 'progress_at', 'cancel_requested',
] as const;

/**
 * A job as the API shows it, the same from every server: while it runs, its phase, rows done,
 * rate and seconds left, from this server's live counters when it runs here, else from the job's
 * row (which its server's heartbeat renews every second).
 */
function jobView(job: JobRow) {
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
 * Imports, under `/api/imports` (see docs/architecture.md, "The import job"):
 * - `POST /imports?entity=<name>&filename=` with the file as the body (octet-stream, ≤ 50 MB):
 *   stores it, answers its columns, the guessed mapping and the row count;
 * - `POST /imports/:id/preview {mapping, fixes}`: every row checked by the forms' validator; the
 *   first rows and the invalid ones (each invalid cell with its message key);
 * - `POST /imports/:id/start {mapping, fixes, mode}`: runs the job on the server (one running
 *   import per entity); `GET /imports/:id` its progress; `POST /imports/:id/cancel`;
 * - `GET /imports/:id/report` the rows not imported and why (CSV); `GET /imports?entity=` the
 *   recent jobs (a closed browser finds its import again); `GET /imports/sample/:entity` a sample file.
 * Each needs the entity's create permission (update too when it updates by key).
 */
export async function importRoutes(app: FastifyInstance) {
  const db = app.db as Kysely<any>;
  const ctx = () => ({ db: app.db, registry: app.entities });

  // A job left running by a server that stopped never committed: its rows are not in the tables.
  // PGlite has one server, so every running job is such a job; on PostgreSQL other servers may be
  // running theirs, so only jobs whose heartbeat stopped (failStaleImports, also before each read).
  await failStaleImports(db, app.database.kind === 'pglite');
  app.addHook('onClose', async () => {
    for (const live of liveImports.values()) live.cancelled = true;
    await Promise.allSettled([...liveImports.values()].map((live) => live.finished));
  });

  const importable = (name: unknown, request: FastifyRequest): LoadedEntity => {
    const entity = typeof name === 'string' ? app.entities.byName.get(name) : undefined;
    const config = importConfigOf(entity);
    if (!canPerform(entity!, 'create', request.user?.role) || (config.key && !canPerform(entity!, 'update', request.user?.role))) throw forbidden();
    return entity!;
  };
  /** The rows of the jobs this server runs, as they were when they started. */
  const runningHere = new Map<number, JobRow>();
  const isStale = (job: JobRow) => !job.progress_at || Date.now() - new Date(job.progress_at).getTime() > STALE_SECONDS * 1000;
  const loadJob = async (request: FastifyRequest, withFile = false): Promise<{ job: JobRow & { file?: Buffer; mapping?: unknown; fixes?: unknown }; entity: LoadedEntity }> => {
    const raw = (request.params as { id: string }).id;
    if (!/^[1-9]\d{0,9}$/.test(raw)) throw badRequest('Invalid import ID');
    const job = (await db
      .selectFrom('import_jobs')
      .select([...JOB_COLUMNS, ...(withFile ? (['file', 'mapping', 'fixes', 'report'] as const) : [])])
      .where('id', '=', Number(raw))
      .executeTakeFirst()) as (JobRow & { file?: Buffer; mapping?: unknown; fixes?: unknown }) | undefined;
    if (!job) throw notFound('Import not found.');
    if (job.status === 'running' && !liveImports.has(job.id) && isStale(job)) {
      await failStaleImports(db);
      return loadJob(request, withFile);
    }
    // PGlite returns bytea as a Uint8Array, pg as a Buffer.
    if (job.file) job.file = Buffer.from(job.file.buffer, job.file.byteOffset, job.file.byteLength);
    const entity = importable(job.entity, request);
    return { job, entity };
  };
  const bodyOf = (request: FastifyRequest) => (request.body ?? {}) as { mapping?: unknown; fixes?: unknown; mode?: unknown };

  app.register(async (uploads) => {
    uploads.addContentTypeParser(['application/octet-stream', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES + 1 }, (_request, body, done) => done(null, body));
    uploads.post('/imports', { bodyLimit: MAX_IMPORT_BYTES + 1 }, async (request, reply) => {
      const query = request.query as { entity?: string; filename?: string };
      const entity = importable(query.entity, request);
      const file = request.body;
      if (!Buffer.isBuffer(file) || file.length === 0) throw badRequest('Send the file as the request body (application/octet-stream).');
      if (file.length > MAX_IMPORT_BYTES) throw tooLarge();
      const parsed = await parseImportFile(file);
      const filename = String(query.filename ?? 'upload').slice(0, 200);
      const job = await db
        .insertInto('import_jobs')
        .values({ entity: entity.descriptor.name, filename, file, total_rows: parsed.rows.length, user_id: request.user?.id ?? null })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      reply.code(201);
      return {
        data: {
          id: job.id,
          filename,
          headers: parsed.headers,
          mapping: guessMapping(entity, parsed.headers),
          total_rows: parsed.rows.length,
          sample: parsed.rows.slice(0, 5),
        },
      };
    });
  });

  app.get('/imports', async (request) => {
    const entity = importable((request.query as { entity?: string }).entity, request);
    await failStaleImports(db);
    const jobs = (await db
      .selectFrom('import_jobs')
      .select([...JOB_COLUMNS])
      .where('entity', '=', entity.descriptor.name)
      .where('status', '!=', 'uploaded')
      .orderBy('id', 'desc')
      .limit(10)
      .execute()) as JobRow[];
    return { data: jobs.map(jobView) };
  });

  app.post('/imports/:id/preview', async (request) => {
    const { job, entity } = await loadJob(request, true);
    const { headers, rows } = await parseImportFile(job.file!);
    const mapping = checkMapping(entity, bodyOf(request).mapping, headers.length);
    const fixes = checkFixes(entity, bodyOf(request).fixes, rows.length);
    const config = importConfigOf(entity);
    const keyChecker = createRowChecker(entity, mapping, new Map());
    const keys = config.key ? rows.map((values, i) => keyChecker.keyOf(values, fixes[String(i + 1)])).filter((k): k is string => k !== undefined) : [];
    const existing = config.key ? await storedByKey(entity, config.key, keys, db) : new Map();
    const checker = createRowChecker(entity, mapping, existing);
    const shown: Array<{ row: number; values: string[]; errors: unknown[]; update: boolean }> = [];
    let invalid = 0;
    let updates = 0;
    rows.forEach((values, i) => {
      const checked = checker.check(values, i + 1, fixes[String(i + 1)]);
      const update = checked.id !== undefined;
      if (update) updates++;
      if (checked.errors.length > 0) invalid++;
      if (i < PREVIEW_ROWS || (checked.errors.length > 0 && invalid <= PREVIEW_INVALID)) shown.push({ row: i + 1, values, errors: checked.errors, update });
    });
    return { data: { total_rows: rows.length, invalid_rows: invalid, update_rows: updates, rows: shown } };
  });

  app.post('/imports/:id/start', async (request, reply) => {
    const { job, entity } = await loadJob(request, true);
    if (!['uploaded', 'failed', 'cancelled'].includes(job.status)) throw conflict('This import has already run.');
    const body = bodyOf(request);
    const mode = (body.mode ?? 'all') as ImportMode;
    if (mode !== 'all' && mode !== 'valid') throw badRequest('The mode must be all or valid.');
    const headers = await importHeaders(job.file!);
    const mapping = checkMapping(entity, body.mapping, headers.length);
    const fixes = checkFixes(entity, body.fixes, job.total_rows);
    await failStaleImports(db);
    try {
      await db
        .updateTable('import_jobs')
        .set({
          status: 'running',
          mode,
          mapping: JSON.stringify(mapping),
          fixes: JSON.stringify(fixes),
          started_at: sql`now()`,
          finished_at: null,
          error: null,
          report: null,
          phase: 'reading',
          phase_started_at: sql`now()`,
          progress_at: sql`now()`,
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
    const { file: _file, mapping: _mapping, fixes: _fixes, ...row } = job;
    runningHere.set(job.id, { ...row, status: 'running', mode, error: null, finished_at: null });
    const stopHeartbeat = startHeartbeat(db, job.id, live);
    live.finished = runImport(
      { jobId: job.id, entity, file: job.file!, mapping, fixes, mode, userId: request.user?.id ?? null, ip: request.ip },
      ctx(),
      live,
    )
      .catch((error: unknown) => app.log.error({ err: error, job: job.id }, 'import failed'))
      .finally(() => {
        stopHeartbeat();
        liveImports.delete(job.id);
        runningHere.delete(job.id);
      });
    reply.code(202);
    return { data: jobView({ ...job, status: 'running', phase: 'reading' }) };
  });

  // A job running here is answered from memory: on PGlite its write transaction holds the only
  // connection, and the progress must still move.
  app.get('/imports/:id', async (request) => {
    const here = runningHere.get(Number((request.params as { id: string }).id));
    if (here) {
      importable(here.entity, request);
      return { data: jobView(here) };
    }
    const { job } = await loadJob(request);
    return { data: jobView(job) };
  });

  // Cancels here when the job runs here; otherwise writes the request to the job's row, which its
  // server reads within a heartbeat, and waits (up to CANCEL_WAIT_MS) for the job to stop.
  app.post('/imports/:id/cancel', async (request) => {
    const { job } = await loadJob(request);
    if (job.status !== 'running') throw conflict('This import is not running.');
    const live = liveImports.get(job.id);
    if (live) {
      live.cancelled = true;
      await live.finished;
    } else {
      await db.updateTable('import_jobs').set({ cancel_requested: true }).where('id', '=', job.id).where('status', '=', 'running').execute();
      const deadline = Date.now() + CANCEL_WAIT_MS;
      while (Date.now() < deadline && (await loadJob(request)).job.status === 'running') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { job: after } = await loadJob(request);
    return { data: jobView(after) };
  });

  app.get('/imports/:id/report', async (request, reply) => {
    const { job, entity } = await loadJob(request, true);
    const report = job.report as { headers: string[]; rows: ReportRow[] } | null | undefined;
    if (!report) throw notFound('This import has no report.');
    const language = exportLanguage((request.query as { lang?: string }).lang, request.headers['accept-language']);
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
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="import-${job.id}-report.csv"`);
    return `\ufeff${stringify(table)}`;
  });

  app.get('/imports/sample/:entity', async (request, reply) => {
    const entity = importable((request.params as { entity: string }).entity, request);
    const config = importConfigOf(entity);
    const language = exportLanguage((request.query as { lang?: string }).lang, request.headers['accept-language']);
    const fields = config.fields.filter((field) => !(entity.descriptor.comparisons.some((rule) => rule.field === field && rule.operator === 'eq')));
    const table = [fields.map((field) => translate(language, fieldLabelKey(entity, field))), ...(config.sample ?? []).map((row) => fields.map((field) => row[field] ?? ''))];
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${entity.descriptor.endpoint}-sample.csv"`);
    return `\ufeff${stringify(table, { cast: { boolean: (value: boolean) => String(value) } })}`;
  });
}
