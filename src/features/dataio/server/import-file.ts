import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { AppError } from '../../../server/index.js';
import type { FieldError } from '../../../shared/api-contract.js';

/** The largest file an import takes. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** The most data rows an import takes. */
export const MAX_IMPORT_ROWS = 200_000;

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
    { limit: MAX_IMPORT_ROWS.toLocaleString('en'), rows: rows.toLocaleString('en') },
    `The file has ${rows} rows; an import takes at most ${MAX_IMPORT_ROWS}. Split it into smaller files.`,
  );

const unreadable = (detail: string) =>
  new AppError(400, 'BAD_REQUEST', `The file could not be read: ${detail}`, [
    { path: 'file', keyword: 'format', messageKey: 'dataio.import.errors.unreadable', params: {} },
  ]);

/** Whether the bytes are a ZIP container (an XLSX workbook). */
const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

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

/** A cell of a workbook as the text a person sees (dates as ISO dates, formulas by their result). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
    return JSON.stringify(value);
  }
  return String(value);
}

async function parseXlsx(bytes: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message : String(error));
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    if (rows.length > MAX_IMPORT_ROWS + 1) return;
    const values = row.values as ExcelJS.CellValue[];
    rows.push(values.slice(1).map(cellText));
  });
  if (sheet.rowCount > MAX_IMPORT_ROWS + 1) throw tooManyRows(sheet.rowCount - 1);
  return rows;
}

/** Characters handed to the CSV parser at a time: between two pieces other requests run. */
const CSV_PIECE = 256 * 1024;

async function parseCsv(bytes: Buffer, to = MAX_IMPORT_ROWS + 2): Promise<string[][]> {
  const text = bytes.toString('utf8');
  const parser = parse({
    bom: true,
    delimiter: guessDelimiter(text.replace(/^\ufeff/, '')),
    relax_column_count: true,
    skip_empty_lines: true,
    to,
  });
  // csv-parse's stream API fed piece by piece: a 50 MB file never holds the event loop for long.
  function* pieces() {
    for (let at = 0; at < text.length; at += CSV_PIECE) yield text.slice(at, at + CSV_PIECE);
  }
  const source = Readable.from(pieces());
  source.pipe(parser);
  const rows: string[][] = [];
  try {
    for await (const record of parser) {
      rows.push(record as string[]);
      if (rows.length >= to) break;
    }
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message : String(error));
  } finally {
    source.destroy();
  }
  return rows;
}

/**
 * Reads an uploaded CSV (any of , ; tab |, UTF-8 with or without BOM, quoted fields with line
 * breaks) or XLSX (first sheet) into its header row and data rows. Blank rows are skipped.
 *
 * @throws AppError 413 beyond 50 MB or 200,000 rows, 400 when it cannot be read or has no header.
 */
export async function parseImportFile(bytes: Buffer): Promise<ParsedFile> {
  if (bytes.length > MAX_IMPORT_BYTES) throw tooLarge();
  const table = isZip(bytes) ? await parseXlsx(bytes) : await parseCsv(bytes);
  return tableOf(table);
}

/** The header row of a stored file (a CSV is read only as far as its first non-blank rows). */
export async function importHeaders(bytes: Buffer): Promise<string[]> {
  if (isZip(bytes)) return (await parseImportFile(bytes)).headers;
  const first = (await parseCsv(bytes, 100)).find((row) => row.some((cell) => cell.trim() !== ''));
  if (!first) throw unreadable('it has no header row.');
  return first.map((header) => header.trim());
}

function tableOf(table: string[][]): ParsedFile {
  const nonEmpty = table.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (nonEmpty.length === 0) throw unreadable('it has no header row.');
  if (nonEmpty.length - 1 > MAX_IMPORT_ROWS) throw tooManyRows(nonEmpty.length - 1);
  const [headers, ...rows] = nonEmpty;
  return { headers: headers!.map((header) => header.trim()), rows };
}
