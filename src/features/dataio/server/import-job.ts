import { sql, type Updateable } from 'kysely';
import { AppError, hookFor, type OperationContext, runBeforeWrite, storedFields, toColumnValues, uniqueConflict, writeAudit } from '../../../server/index.js';
import type { FieldError } from '../../../shared/api-contract.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { dataRows, importHeaders, timeSlicer } from './import-file.js';
import { type CheckedRow, createRowChecker, type ImportFixes, type ImportMapping, importConfigOf, type SecretColumns } from './import-rows.js';
import { maskValues } from './import-secrets.js';
import { type DataioDb, dataioDb, type EntityDb, entityDb, type ImportJobsTable } from './tables.js';

/** How an import treats invalid rows: refuse the whole file, or import the others. */
export type ImportMode = 'all' | 'valid';

/** Rows written per savepoint in valid-rows mode (in statements of {@link INSERT_ROWS}). */
const BATCH = 1000;
/**
 * Rows per insert statement within a batch: PGlite runs statements on the server's own thread, and
 * 1,000 submittors with their indexes (trigram ones among them) and triggers held it 110-220 ms,
 * 50 still 45-150 ms; 25 (with PGlite's GIN pending list kept small, see kysely.ts) at most 87 ms.
 */
const INSERT_ROWS = 25;
/** How often a running job writes its progress (and reads a cancel request) to its row. */
export const HEARTBEAT_MS = 1000;
/** A running job whose row has not heard from its server for this long was on a server that stopped. */
export const STALE_SECONDS = 15;
/** Stored keys looked up per query. */
const KEY_LOOKUP = 1000;

/**
 * What the running server knows of a job it runs. Its heartbeat copies it to the job's row every
 * {@link HEARTBEAT_MS}, so another server sharing the database shows the same progress.
 */
export interface LiveProgress {
  phase: 'reading' | 'checking' | 'writing';
  done: number;
  total: number;
  /** When the current phase began (ms since the epoch): the rate is `done` over the time since. */
  startedAt: number;
  cancelled: boolean;
  finished: Promise<void>;
}

/** A failed row of the report: its number in the file, its cells, and why. */
export interface ReportRow {
  row: number;
  values: string[];
  errors: FieldError[];
}

class ImportCancelled extends Error {}

/** Rows whose hooks run at once: libuv's four threads hash; more would only flood the event loop with completions. */
const HOOKS_AT_ONCE = 4;

/** Runs the tasks given to `run` at most `size` at a time, in order. */
function limiter(size: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          active++;
          task()
            .then(resolve, reject)
            .finally(() => {
              active--;
              waiting.shift()?.();
            });
        };
        if (active < size) start();
        else waiting.push(start);
      });
    },
  };
}

/** The jobs this server is running, by id. */
export const liveImports = new Map<number, LiveProgress>();

/**
 * Marks failed ('interrupted') the running jobs whose server stopped: every running job (`all`,
 * at the start of a server that is the database's only one: PGlite), else those whose heartbeat is
 * older than {@link STALE_SECONDS}. Their rows were never committed: the job's writes and its
 * final status share one transaction.
 */
export async function failStaleImports(db: DataioDb, all = false): Promise<void> {
  let query = db
    .updateTable('import_jobs')
    .set({ status: 'failed', error: 'dataio.import.errors.interrupted', phase: null, finished_at: sql`now()` })
    .where('status', '=', 'running');
  if (!all)
    query = query.where((eb) => eb.or([eb('progress_at', 'is', null), eb('progress_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_SECONDS})`)]));
  await query.execute();
}

/**
 * Copies a running job's progress to its row every {@link HEARTBEAT_MS} (outside the job's
 * transaction) and picks up a cancel request another server wrote there. Returns the stop.
 */
export function startHeartbeat(db: DataioDb, jobId: number, live: LiveProgress): () => void {
  let busy = false;
  const beat = async () => {
    if (busy) return;
    busy = true;
    try {
      const row = await db
        .updateTable('import_jobs')
        .set({ phase: live.phase, done_rows: live.done, total_rows: live.total, phase_started_at: new Date(live.startedAt), progress_at: sql`now()` })
        .where('id', '=', jobId)
        .where('status', '=', 'running')
        .returning(['cancel_requested'])
        .executeTakeFirst();
      if (row?.cancel_requested) live.cancelled = true;
    } catch {
      // The next beat tries again; a job that cannot beat for STALE_SECONDS is shown as interrupted.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Reads the stored records the file's keys name, as `lower(key) → { id, record }`: {@link KEY_LOOKUP}
 * distinct keys per query, gathered as it goes (one `new Set` of 190,000 keys held every other
 * request for a tenth of a second), the lookups' waits giving other requests their turns.
 */
export async function storedByKey(entity: LoadedEntity, key: string, keys: readonly string[], db: EntityDb) {
  const found = new Map<string, { id: number; record: Record<string, unknown> }>();
  const seen = new Set<string>();
  let chunk: string[] = [];
  const lookup = async () => {
    const rows = (await db
      .selectFrom(entity.descriptor.table)
      .select(storedFields(entity))
      .where(sql<boolean>`lower(${sql.ref(key)}) in (${sql.join(chunk)})`)
      .execute()) as Record<string, unknown>[];
    chunk = [];
    for (const row of rows) found.set(String(row[key]).toLowerCase(), { id: row.id as number, record: row });
  };
  for (const value of keys) {
    if (seen.has(value)) continue;
    seen.add(value);
    chunk.push(value);
    if (chunk.length >= KEY_LOOKUP) await lookup();
  }
  if (chunk.length > 0) await lookup();
  return found;
}

/** Whether every before-write hook of the entity needs only its own row (so rows can run them at once, ahead of the write). */
const rowLocal = (entity: LoadedEntity) => entity.descriptor.hooks.beforeWrite.every((name) => hookFor(name)?.rowLocal === true);

/** A checked row to create, with its row-local hooks already started (the password hashing), and its cells (for the report). */
type PreparedRow = CheckedRow & { prepared?: Promise<void>; values?: readonly string[] };

/** Writes one batch of checked rows: hooks as the forms run them (bulk variant), then the rows. */
async function writeRows(entity: LoadedEntity, rows: readonly PreparedRow[], trx: EntityDb): Promise<{ created: number; updated: number }> {
  const table = entity.descriptor.table;
  const creates = rows.filter((row) => row.id === undefined);
  const updates = rows.filter((row) => row.id !== undefined);
  if (creates.length > 0) {
    if (rowLocal(entity)) {
      await Promise.all(creates.map((row) => row.prepared ?? runBeforeWrite({ entity, operation: 'create', data: row.data!, db: trx, bulk: true })));
      for (let at = 0; at < creates.length; at += INSERT_ROWS) {
        await trx
          .insertInto(table)
          .values(creates.slice(at, at + INSERT_ROWS).map((row) => toColumnValues(entity, { ...row.data!, ...row.derived })))
          .execute();
      }
    } else {
      for (const row of creates) {
        await runBeforeWrite({ entity, operation: 'create', data: row.data!, db: trx, bulk: true });
        await trx
          .insertInto(table)
          .values(toColumnValues(entity, { ...row.data!, ...row.derived }))
          .execute();
      }
    }
  }
  for (const row of updates) {
    const previous = (await trx.selectFrom(table).select(storedFields(entity)).where('id', '=', row.id!).forUpdate().executeTakeFirst()) as
      | Record<string, unknown>
      | undefined;
    await runBeforeWrite({ entity, operation: 'update', data: row.data!, previous, id: row.id, db: trx, bulk: true });
    const values = toColumnValues(entity, { ...row.data!, ...row.derived });
    if (entity.schema.properties?.updated_at) values.updated_at = sql`greatest(now(), ${sql.ref('updated_at')} + interval '1 millisecond')`;
    if (Object.keys(values).length > 0) await trx.updateTable(table).set(values).where('id', '=', row.id!).execute();
  }
  return { created: creates.length, updated: updates.length };
}

/** The field errors of a write that the database refused (a unique clash), else rethrows. */
function writeErrors(entity: LoadedEntity, error: unknown): FieldError[] {
  const mapped = uniqueConflict(entity, error);
  if (mapped instanceof AppError && mapped.errors) return mapped.errors;
  throw error;
}

export interface ImportJobInput {
  jobId: number;
  entity: LoadedEntity;
  /** The stored table's parts (see tableWriter). */
  file: Buffer[];
  mapping: ImportMapping;
  fixes: ImportFixes;
  /** The columns sealed at upload (write-only fields: their tokens hold the check and the hash). */
  secretColumns: SecretColumns;
  mode: ImportMode;
  userId: number | null;
  ip: string | null;
}

/**
 * Runs one import to its end. Every row is checked first; in `all` mode one invalid row stops
 * the import before anything is written. The rows are then written in ONE transaction (in
 * batches of {@link BATCH}), so a cancelled, failed or killed import leaves nothing behind; in
 * `valid` mode each batch has a savepoint and a batch the database refuses is retried row by row,
 * the refused rows joining the report. The job row, the audit entry and the records commit
 * together. Progress is kept in {@link liveImports} while it runs.
 */
export async function runImport(input: ImportJobInput, ctx: OperationContext, progress: LiveProgress): Promise<void> {
  const { entity, jobId, mode } = input;
  const db = entityDb(ctx.db);
  const jobs = dataioDb(ctx.db);
  const config = importConfigOf(entity);
  const finish = (values: Updateable<ImportJobsTable>) =>
    jobs
      .updateTable('import_jobs')
      .set({ ...values, phase: null, progress_at: sql<Date>`now()`, finished_at: sql<Date>`now()` })
      .where('id', '=', jobId)
      .execute();
  try {
    // The stored table is read as a stream, once per pass (keys, check, write), so its rows are
    // never all held at once: only the failed rows (the report) and the keys are kept.
    const headers = await importHeaders(input.file);
    const rowsOf = () => dataRows(input.file);
    progress.phase = 'checking';
    progress.startedAt = Date.now();
    const checker0 = createRowChecker(entity, input.mapping, new Map(), input.secretColumns);
    const keys: string[] = [];
    // Every loop over the rows gives other requests a turn every few milliseconds.
    const pause = timeSlicer();
    if (config.key) {
      let i = 0;
      for await (const values of rowsOf()) {
        const key = checker0.keyOf(values, input.fixes[String(++i)]);
        if (key !== undefined) keys.push(key);
        await pause();
      }
    }
    const existing = config.key ? await storedByKey(entity, config.key, keys, db) : new Map();
    keys.length = 0;
    const report: ReportRow[] = [];
    let total = 0;
    let validCount = 0;
    {
      const checker = createRowChecker(entity, input.mapping, existing, input.secretColumns);
      for await (const values of rowsOf()) {
        const i = total++;
        const checked = checker.check(values, i + 1, input.fixes[String(i + 1)]);
        if (checked.errors.length > 0) report.push({ row: i + 1, values: maskValues(values, input.secretColumns), errors: checked.errors });
        else validCount++;
        progress.done = i + 1;
        progress.total = Math.max(progress.total, total);
        await pause();
        if (i % 500 === 499 && progress.cancelled) throw new ImportCancelled();
      }
    }
    progress.total = total;
    const reportOf = () => ({ headers, rows: report });
    if (mode === 'all' && report.length > 0) {
      await finish({ status: 'failed', error: 'invalid_rows', failed_rows: report.length, done_rows: 0, report: JSON.stringify(reportOf()) });
      return;
    }
    progress.phase = 'writing';
    progress.done = 0;
    progress.total = validCount;
    progress.startedAt = Date.now();
    let created = 0;
    let updated = 0;
    // The write pass checks the rows again (a fresh checker: the same answers, duplicates included)
    // and writes the valid ones a batch at a time. Row-local hooks (the password hash: scrypt on
    // libuv's threads) start as each new row passes its check, so hashing runs on the other cores
    // while this thread checks the next rows.
    const early = rowLocal(entity);
    const hooks = limiter(HOOKS_AT_ONCE);
    const writeChecker = createRowChecker(entity, input.mapping, existing, input.secretColumns);
    async function* validBatches(): AsyncGenerator<PreparedRow[]> {
      let batch: PreparedRow[] = [];
      let i = 0;
      for await (const values of rowsOf()) {
        i++;
        const checked: PreparedRow = writeChecker.check(values, i, input.fixes[String(i)]);
        await pause();
        if (checked.errors.length > 0) continue;
        checked.values = values;
        if (early && checked.id === undefined) {
          checked.prepared = hooks.run(() => runBeforeWrite({ entity, operation: 'create', data: checked.data!, db, bulk: true }));
          // Awaited by the write; a job that stops first must not leave an unhandled rejection.
          checked.prepared.catch(() => undefined);
        }
        batch.push(checked);
        if (batch.length >= BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    }
    await db.transaction().execute(async (trx) => {
      for await (const batch of validBatches()) {
        if (progress.cancelled) throw new ImportCancelled();
        if (mode === 'all') {
          try {
            const written = await writeRows(entity, batch, trx);
            created += written.created;
            updated += written.updated;
          } catch (error) {
            const errors = writeErrors(entity, error);
            throw Object.assign(new AppError(409, 'CONFLICT', 'A row clashes with a stored record.', errors), { rows: batch.map((row) => row.row) });
          }
        } else {
          await sql`savepoint import_batch`.execute(trx);
          try {
            const written = await writeRows(entity, batch, trx);
            created += written.created;
            updated += written.updated;
            await sql`release savepoint import_batch`.execute(trx);
          } catch {
            await sql`rollback to savepoint import_batch`.execute(trx);
            for (const row of batch) {
              await sql`savepoint import_row`.execute(trx);
              try {
                const written = await writeRows(entity, [row], trx);
                created += written.created;
                updated += written.updated;
                await sql`release savepoint import_row`.execute(trx);
              } catch (error) {
                await sql`rollback to savepoint import_row`.execute(trx);
                report.push({ row: row.row, values: maskValues(row.values ?? [], input.secretColumns), errors: writeErrors(entity, error) });
              }
            }
          }
        }
        progress.done = Math.min(validCount, progress.done + batch.length);
      }
      report.sort((a, b) => a.row - b.row);
      await writeAudit(trx, {
        action: 'data.import',
        userId: input.userId,
        ip: input.ip,
        entity: entity.descriptor.name,
        entityId: null,
        details: { job: jobId, mode, rows: total, created, updated, failed: report.length },
      });
      await dataioDb(trx)
        .updateTable('import_jobs')
        .set({
          status: 'done',
          done_rows: created + updated,
          created_rows: created,
          updated_rows: updated,
          failed_rows: report.length,
          report: report.length > 0 ? JSON.stringify(reportOf()) : null,
          secret_columns: null,
          error: null,
          phase: null,
          progress_at: sql`now()`,
          finished_at: sql`now()`,
        })
        .where('id', '=', jobId)
        .execute();
      // The job has ended for good: its stored table goes (the report keeps the failed rows, masked).
      await dataioDb(trx).deleteFrom('import_job_parts').where('job_id', '=', jobId).execute();
    });
  } catch (error) {
    if (error instanceof ImportCancelled) {
      await finish({ status: 'cancelled', error: 'cancelled', done_rows: 0 });
    } else if (error instanceof AppError) {
      const rowsOf = (error as AppError & { rows?: number[] }).rows;
      const report = rowsOf ? { headers: [], rows: [{ row: rowsOf[0], values: [], errors: error.errors ?? [] }] } : null;
      await finish({ status: 'failed', error: error.errors?.[0]?.messageKey ?? error.message, done_rows: 0, report: report ? JSON.stringify(report) : null });
    } else {
      await finish({ status: 'failed', error: 'errors.somethingWentWrongTryAgain', done_rows: 0 }).catch(() => undefined);
      throw error;
    }
  }
}
