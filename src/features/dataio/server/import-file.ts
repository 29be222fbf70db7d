import { promisify } from 'node:util';
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
const CSV_PIECE = 64 * 1024;

/**
 * Parses CSV bytes piece by piece (decoded as UTF-8 in pieces too), with an event-loop turn
 * between pieces, so a 50 MB file never holds other requests for more than a piece's parse.
 * Stops after `to` records; refuses a row with more than {@link MAX_IMPORT_COLUMNS} cells or a
 * cell longer than {@link MAX_CELL_CHARS}.
 */
async function parseCsv(bytes: Buffer, to = MAX_IMPORT_ROWS + 2): Promise<string[][]> {
  if (isUtf16(bytes)) throw utf16();
  const decoder = new TextDecoder('utf-8');
  const head = decoder.decode(bytes.subarray(0, 64 * 1024), { stream: true });
  const parser = parse({
    bom: true,
    delimiter: guessDelimiter(head.replace(/^\ufeff/, '')),
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_CELL_CHARS * 4,
    to,
  });
  const rows: string[][] = [];
  let failure: unknown;
  parser.on('readable', () => {
    for (let record = parser.read(); record !== null; record = parser.read()) {
      const row = record as string[];
      if (row.length > MAX_IMPORT_COLUMNS) failure ??= tooManyColumns();
      else if (row.some((cell) => cell.length > MAX_CELL_CHARS)) failure ??= cellTooLong();
      // Rows of blank cells are skipped here, so no later pass over every row is needed.
      if (rows.length < to && row.some((cell) => cell.trim() !== '')) rows.push(row);
    }
  });
  parser.on('error', (error) => {
    failure ??= error;
  });
  const ended = new Promise<void>((resolve) => parser.once('end', resolve).once('error', () => resolve()));
  parser.write(head);
  for (let at = 64 * 1024; at < bytes.length && rows.length < to && !failure; at += CSV_PIECE) {
    await new Promise((resolve) => setImmediate(resolve));
    parser.write(decoder.decode(bytes.subarray(at, at + CSV_PIECE), { stream: true }));
  }
  if (!failure && rows.length < to) {
    parser.end(decoder.decode());
    await ended;
  } else parser.destroy();
  if (failure instanceof AppError) throw failure;
  if (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    if (/max_record_size/i.test(message)) throw cellTooLong();
    throw unreadable(message);
  }
  return rows;
}

/**
 * Reads an uploaded CSV (any of , ; tab |, UTF-8 with or without BOM, quoted fields with line
 * breaks) or XLSX (first sheet, read as a stream within limits) into its header row and data rows.
 * Blank rows are skipped. A stored import table (gzip CSV, see {@link storeTable}) reads the same.
 *
 * @throws AppError 413 beyond 50 MB, 200,000 rows, 256 columns, a cell of 32,767 characters or a
 * workbook that inflates too far; 400 when it cannot be read, is UTF-16, or has no header.
 */
export async function parseImportFile(bytes: Buffer): Promise<ParsedFile> {
  if (bytes.length > MAX_IMPORT_BYTES) throw tooLarge();
  if (isGzip(bytes)) return tableOf(await parseCsv(await gunzip(bytes)));
  const table = isZip(bytes) ? await parseXlsx(bytes) : await parseCsv(bytes);
  return tableOf(table);
}

/** The header row of a stored file (a CSV is read only as far as its first non-blank rows). */
export async function importHeaders(bytes: Buffer): Promise<string[]> {
  if (isZip(bytes)) return (await parseImportFile(bytes)).headers;
  const text = isGzip(bytes) ? await gunzipHead(bytes) : bytes;
  const first = (await parseCsv(text, 100)).find((row) => row.some((cell) => cell.trim() !== ''));
  if (!first) throw unreadable('it has no header row.');
  return first.map((header) => header.trim());
}

/** The header row and the data rows of a table whose blank rows are already skipped (both readers skip them). */
function tableOf(table: string[][]): ParsedFile {
  if (table.length === 0) throw unreadable('it has no header row.');
  if (table.length - 1 > MAX_IMPORT_ROWS) throw tooManyRows(table.length - 1);
  const headers = table.shift()!;
  return { headers: headers.map((header) => header.trim()), rows: table };
}

const gunzip = promisify(zlib.gunzip);

/** The first 256 KB of a stored table, enough for its header row. */
async function gunzipHead(bytes: Buffer): Promise<Buffer> {
  const stream = zlib.createGunzip();
  stream.end(bytes);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= 256 * 1024) break;
  }
  stream.destroy();
  return Buffer.concat(chunks);
}

/**
 * The table an import job keeps (instead of the upload): its header and rows as CSV, written a
 * few thousand rows at a time into a gzip stream (zlib on libuv's threads), with event-loop turns
 * between, so neither the CSV text nor its pieces are ever held whole.
 */
export async function storeTable(headers: readonly string[], rows: readonly (readonly string[])[]): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 3 });
  const compressed: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = new Promise<void>((resolve, reject) => gzip.once('end', resolve).once('error', reject));
  const write = async (text: string) => {
    if (!gzip.write(text)) await new Promise((resolve) => gzip.once('drain', resolve));
  };
  await write(stringify([headers as string[]]));
  for (let at = 0; at < rows.length; at += 1000) {
    await write(stringify(rows.slice(at, at + 1000) as string[][]));
    await new Promise((resolve) => setImmediate(resolve));
  }
  gzip.end();
  await ended;
  return Buffer.concat(compressed);
}
