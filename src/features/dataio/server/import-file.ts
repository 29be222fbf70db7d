import zlib from 'node:zlib';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { AppError } from '../../../server/index.js';
import type { FieldError } from '../../../shared/api-contract.js';
// The largest file and the most data rows an import takes (shared with the import screen's line).
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../shared/import-limits.js';
import { DEFAULT_XLSX_LIMITS, readXlsx, XlsxFormatError, XlsxLimitError } from './xlsx-read.js';

export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS };
/** The most columns an import file may have. */
export const MAX_IMPORT_COLUMNS = 256;
/** The most characters of one cell (Excel's own limit). */
export const MAX_CELL_CHARS = 32_767;

/** A file's table: the header row and the data rows, every cell as text. */
export interface ParsedFile {
  headers: string[];
  rows: string[][];
}

const limitError = (messageKey: string, params: Record<string, unknown>, message: string) =>
  new AppError(413, 'BAD_REQUEST', message, [{ path: 'file', keyword: 'limit', messageKey, params } satisfies FieldError]);

export const tooLarge = () => limitError('dataio.import.errors.too_large', { limit: '50 MB' }, `The file is larger than 50 MB; split it into smaller files.`);

const tooManyRows = (rows: number) =>
  limitError(
    'dataio.import.errors.too_many_rows',
    { limit: MAX_IMPORT_ROWS, rows },
    `The file has ${rows} rows; an import takes at most ${MAX_IMPORT_ROWS}. Split it into smaller files.`,
  );

const tooManyColumns = () =>
  limitError('dataio.import.errors.too_many_columns', { limit: MAX_IMPORT_COLUMNS }, `The file has more than ${MAX_IMPORT_COLUMNS} columns.`);

const cellTooLong = () => limitError('dataio.import.errors.cell_too_long', { limit: MAX_CELL_CHARS }, `A cell has more than ${MAX_CELL_CHARS} characters.`);

const workbookTooLarge = (detail: string) =>
  limitError('dataio.import.errors.workbook_too_large', {}, `The workbook expands to more than an import reads (${detail}); save it again or as CSV.`);

const unreadable = (detail: string) =>
  new AppError(400, 'BAD_REQUEST', `The file could not be read: ${detail}`, [
    { path: 'file', keyword: 'format', messageKey: 'dataio.import.errors.unreadable', params: {} },
  ]);

const utf16 = () =>
  new AppError(400, 'BAD_REQUEST', 'The file is UTF-16 text; save it as "CSV UTF-8" and upload it again.', [
    { path: 'file', keyword: 'encoding', messageKey: 'dataio.import.errors.utf16', params: {} },
  ]);

/** Whether the bytes are a ZIP container (an XLSX workbook). */
const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
/** Whether the bytes are gzip (a stored import table). */
const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * Whether the bytes are UTF-16 text: a UTF-16 byte-order mark, or (without one) NUL bytes in
 * most even or most odd places of the first kilobytes, as ASCII text saved as UTF-16 has.
 */
export function isUtf16(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  const length = Math.min(bytes.length, 4096) & ~1;
  if (length < 4) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const pairs = length / 2;
  return even > pairs * 0.4 || odd > pairs * 0.4;
}

/** Lets other requests run when the current piece of work has held the event loop for `ms`. */
export function timeSlicer(ms = 8): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/** The delimiter used most on the first line outside quotes: comma, semicolon, tab or pipe. */
export function guessDelimiter(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
    ['|', 0],
  ]);
  let quoted = false;
  for (let i = 0; i < text.length && i < 64 * 1024; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
}

async function parseXlsx(bytes: Buffer): Promise<string[][]> {
  try {
    return await readXlsx(bytes, { ...DEFAULT_XLSX_LIMITS, rows: MAX_IMPORT_ROWS, columns: MAX_IMPORT_COLUMNS, cellChars: MAX_CELL_CHARS });
  } catch (error) {
    if (error instanceof XlsxLimitError) {
      if (error.limit === 'rows') throw tooManyRows(error.count ?? MAX_IMPORT_ROWS + 1);
      if (error.limit === 'columns') throw tooManyColumns();
      if (error.limit === 'cell') throw cellTooLong();
      throw workbookTooLarge(error.message);
    }
    if (error instanceof XlsxFormatError) throw unreadable(error.message);
    throw error;
  }
}

/** Bytes decoded and handed to the CSV parser at a time (a few ms of parsing): between two pieces other requests run. */
const CSV_PIECE = 32 * 1024;
/** Bytes read before the CSV parser starts: enough to tell UTF-16 and to guess the delimiter from the first line. */
const CSV_HEAD = 32 * 1024;

/**
 * Bytes, whole or in parts (a stored table's, see {@link TableWriter}), as a source of pieces of
 * {@link CSV_PIECE} (read the way an upload streams; the parts are never joined).
 */
export async function* piecesOf(bytes: Uint8Array | readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
    for (let at = 0; at < part.length; at += CSV_PIECE) yield part.subarray(at, at + CSV_PIECE);
  }
}

/** A source's chunks cut into pieces of at most {@link CSV_PIECE}. */
async function* inPieces(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) for (let at = 0; at < chunk.length; at += CSV_PIECE) yield chunk.subarray(at, at + CSV_PIECE);
}

/**
 * Parses CSV bytes as they stream, a piece at a time (decoded as UTF-8 in pieces too), with an
 * event-loop turn between pieces, so a 50 MB file never holds other requests for more than a
 * piece's parse and is never held whole: the records are yielded as they are parsed. Refuses a
 * row with more than {@link MAX_IMPORT_COLUMNS} cells or a cell longer than {@link MAX_CELL_CHARS}.
 * Rows of blank cells are skipped.
 */
async function* csvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<string[]> {
  const pieces = inPieces(source)[Symbol.asyncIterator]();
  const headChunks: Uint8Array[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < CSV_HEAD) {
    const next = await pieces.next();
    if (next.done) {
      ended = true;
      break;
    }
    headChunks.push(next.value);
    headLength += next.value.length;
  }
  const head = Buffer.concat(headChunks);
  if (isUtf16(head)) throw utf16();
  const decoder = new TextDecoder('utf-8');
  const headText = decoder.decode(head, { stream: true });
  const parser = parse({
    bom: true,
    delimiter: guessDelimiter(headText.replace(/^\ufeff/, '')),
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_CELL_CHARS * 4,
  });
  const parsed: string[][] = [];
  let failure: unknown;
  // csv-parse builds an error, stack trace included, for every row whose cell count differs from the
  // first row's even when told to accept it (relax_column_count), and the rows are read whatever
  // their count; without a stack to capture, such a file parses as fast as an even one (2.3× here).
  const feed = (text: string, end = false) => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      if (end) parser.end(text);
      else parser.write(text);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
  const take = () => {
    for (let record = parser.read(); record !== null; record = parser.read()) parsed.push(record as string[]);
  };
  parser.on('readable', take);
  parser.on('error', (error) => {
    failure ??= error;
  });
  const finished = new Promise<void>((resolve) => parser.once('end', resolve).once('error', () => resolve()));
  /** The rows parsed so far, checked, then forgotten here. */
  function* drain(): Generator<string[]> {
    take();
    if (failure) throw failure;
    for (const row of parsed.splice(0)) {
      if (row.length > MAX_IMPORT_COLUMNS) throw tooManyColumns();
      if (row.some((cell) => cell.length > MAX_CELL_CHARS)) throw cellTooLong();
      if (row.some((cell) => cell.trim() !== '')) yield row;
    }
  }
  try {
    feed(headText);
    yield* drain();
    while (!ended) {
      const next = await pieces.next();
      if (next.done) break;
      await new Promise((resolve) => setImmediate(resolve));
      feed(decoder.decode(next.value, { stream: true }));
      yield* drain();
    }
    feed(decoder.decode(), true);
    await finished;
    yield* drain();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/max_record_size/i.test(message)) throw cellTooLong();
    throw unreadable(message);
  } finally {
    parser.destroy();
    await pieces.return?.(undefined);
  }
}

/**
 * A gzip stream's inflated bytes as they come (zlib on libuv's threads); `limit` bounds what it
 * may inflate to (an uploaded gzip file is held to the upload's limit: no gzip bomb).
 */
async function* gunzipped(first: Uint8Array, rest: AsyncIterator<Uint8Array>, limit = Number.POSITIVE_INFINITY): AsyncGenerator<Uint8Array> {
  const gunzip = zlib.createGunzip();
  const stopped = () => gunzip.destroyed || gunzip.writableEnded;
  void (async () => {
    try {
      let chunk: Uint8Array | undefined = first;
      while (chunk && !stopped()) {
        if (!gunzip.write(chunk)) await drainOrClose(gunzip);
        const next = await rest.next();
        chunk = next.done ? undefined : next.value;
      }
      if (!stopped()) gunzip.end();
    } catch (error) {
      gunzip.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  let inflated = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (inflated > limit) throw tooLarge();
      yield chunk;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable(error instanceof Error ? error.message : String(error));
  } finally {
    gunzip.destroy();
    await rest.return?.(undefined);
  }
}

/** Resolves when a stream wants more writes, or has closed (its reader stopped). */
function drainOrClose(stream: zlib.Gunzip): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.once('drain', done).once('close', done);
  });
}

/** A source with its first bytes (at least four, unless it is shorter) read ahead, to tell its kind. */
async function sniff(source: AsyncIterable<Uint8Array>): Promise<{ head: Uint8Array; rest: AsyncIterator<Uint8Array> }> {
  const rest = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < 4) {
    const next = await rest.next();
    if (next.done) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  return { head: Buffer.concat(chunks), rest };
}

/** The head read ahead, then the rest of the source. */
async function* rejoined(head: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    if (head.length > 0) yield head;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.(undefined);
  }
}

/**
 * A source's bytes in one buffer, each chunk copied in as it arrives (a few KB at a time) into room
 * set aside for {@link MAX_IMPORT_BYTES}: joining 30 MB of chunks at the end was one copy that held
 * every other request for tens of milliseconds. The room not written is never touched, so it takes
 * no memory. Bounded by the source (an upload is refused past the limit before this sees it).
 */
async function gathered(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  let room = Buffer.allocUnsafeSlow(MAX_IMPORT_BYTES);
  let length = 0;
  for await (const chunk of source) {
    if (length + chunk.length > room.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(room.length * 2, length + chunk.length));
      room.copy(larger, 0, 0, length);
      room = larger;
    }
    room.set(chunk, length);
    length += chunk.length;
  }
  return room.subarray(0, length);
}

/**
 * The rows of an import file as they are read from `source`: the header row first (cells
 * trimmed), then the data rows, blank rows skipped. A CSV (any of , ; tab |, UTF-8 with or
 * without BOM, quoted fields with line breaks) is parsed as it streams and never held whole; an
 * XLSX workbook (first sheet, read as a stream within limits) needs its ZIP's central directory,
 * at the end, so it is gathered first (at most {@link MAX_IMPORT_BYTES}, the source's bound); a
 * stored import table (gzip CSV, see {@link TableWriter}) is inflated as it streams, and
 * `gzipLimit` bounds what an uploaded gzip may inflate to.
 *
 * @throws AppError 413 beyond 200,000 rows, 256 columns, a cell of 32,767 characters or a
 * workbook that inflates too far; 400 when it cannot be read, is UTF-16, or has no header.
 */
export async function* readRows(source: AsyncIterable<Uint8Array>, options: { gzipLimit?: number } = {}): AsyncGenerator<string[]> {
  const { head, rest } = await sniff(source);
  let rows: AsyncIterable<string[]> | Iterable<string[]>;
  if (isZip(head)) rows = await parseXlsx(await gathered(rejoined(head, rest)));
  else if (isGzip(head)) rows = csvRecords(gunzipped(head, rest, options.gzipLimit));
  else rows = csvRecords(rejoined(head, rest));
  let header = true;
  let count = 0;
  for await (const row of rows) {
    if (header) {
      header = false;
      yield row.map((cell) => cell.trim());
      continue;
    }
    if (++count > MAX_IMPORT_ROWS) throw tooManyRows(count);
    yield row;
  }
  if (header) throw unreadable('it has no header row.');
}

/**
 * Reads a whole import file (CSV, XLSX or a stored table, see {@link readRows}) into its header
 * row and data rows.
 *
 * @throws AppError 413 beyond 50 MB, and as {@link readRows}.
 */
export async function parseImportFile(bytes: Buffer): Promise<ParsedFile> {
  if (bytes.length > MAX_IMPORT_BYTES && !isGzip(bytes)) throw tooLarge();
  let headers: string[] | undefined;
  const rows: string[][] = [];
  for await (const row of readRows(piecesOf(bytes))) {
    if (headers) rows.push(row);
    else headers = row;
  }
  return { headers: headers!, rows };
}

/** The data rows of a stored file (after its header row), read as a stream: each pass over them parses the file again instead of holding its rows. */
export async function* dataRows(bytes: Uint8Array | readonly Uint8Array[]): AsyncGenerator<string[]> {
  let header = true;
  for await (const row of readRows(piecesOf(bytes))) {
    if (header) header = false;
    else yield row;
  }
}

/** The header row of a stored file (a CSV is read only as far as its first non-blank row). */
export async function importHeaders(bytes: Uint8Array | readonly Uint8Array[]): Promise<string[]> {
  for await (const row of readRows(piecesOf(bytes))) return row;
  throw unreadable('it has no header row.');
}

/** Compressed bytes per stored part of an import table: each part is one row of `import_job_parts`, written and read by itself (under 10 ms each on PGlite). */
export const STORED_PART_BYTES = 256 * 1024;
/** Rows turned into CSV text in one go before the next event-loop turn. */
const WRITE_STEP = 250;

/** The table an import job keeps, written as it is read (see {@link tableWriter}). */
export interface TableWriter {
  /** Adds rows (the header row first); resolves when zlib has room for more. */
  write(rows: readonly (readonly string[])[]): Promise<void>;
  /**
   * The whole compressed table, in parts of about {@link STORED_PART_BYTES}: stored and read a
   * part at a time, so no step copies or sends the whole table at once.
   */
  end(): Promise<Buffer[]>;
  /** Drops what was written (the upload was refused). */
  discard(): void;
}

/**
 * The table an import job keeps (instead of the upload): its header and rows as CSV, written a
 * few hundred rows at a time into a gzip stream (zlib on libuv's threads) as they are read, so
 * neither the CSV text nor its rows are ever held whole: only the compressed table is, in parts.
 */
export function tableWriter(): TableWriter {
  const gzip = zlib.createGzip({ level: 3 });
  const parts: Buffer[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const closePart = () => {
    if (pendingBytes > 0) parts.push(Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  gzip.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= STORED_PART_BYTES) closePart();
  });
  const ended = new Promise<void>((resolve, reject) => gzip.once('end', resolve).once('error', reject));
  ended.catch(() => undefined);
  return {
    async write(rows) {
      for (let at = 0; at < rows.length; at += WRITE_STEP) {
        if (!gzip.write(stringify(rows.slice(at, at + WRITE_STEP) as string[][]))) await new Promise((resolve) => gzip.once('drain', resolve));
        if (at + WRITE_STEP < rows.length) await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async end() {
      gzip.end();
      await ended;
      closePart();
      return parts.splice(0);
    },
    discard() {
      gzip.destroy();
      parts.length = 0;
      pending = [];
    },
  };
}
