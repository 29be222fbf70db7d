import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { csvSafe, csvSafeValue } from './csv-safe.js';
import type { ExportColumn } from './export-rows.js';
import { cellText } from './export-rows.js';

export type ExportFormat = 'csv' | 'xlsx';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

// Booleans as true/false (csv-stringify's default writes 1 and an empty cell), which import reads back.
const CSV_OPTIONS = { cast: { boolean: (value: boolean) => String(value) } };

const rowOf = (columns: readonly ExportColumn[], row: Record<string, unknown>) => columns.map((column) => cellText(row[column.key]));

/**
 * A CSV file as a stream: a UTF-8 byte-order mark (so spreadsheet programs read the accents
 * right), the header row, then each batch as it is read (csv-stringify quotes what needs it).
 * The stream pulls the next batch only when the client has taken the last one.
 */
export function csvStream(columns: readonly ExportColumn[], batches: AsyncIterable<Record<string, unknown>[]>): Readable {
  async function* chunks() {
    yield `\ufeff${stringify([columns.map((c) => csvSafe(c.header))])}`;
    // Each cell a spreadsheet would run as a formula gets a leading quote (csv-safe.ts).
    for await (const records of batches)
      yield stringify(
        records.map((record) => rowOf(columns, record).map(csvSafeValue)),
        CSV_OPTIONS,
      );
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * An XLSX workbook of one sheet as a stream (exceljs's streaming writer: each row is written out
 * once committed; no shared strings, so nothing grows with the file). Waits for the client to
 * drain what is buffered before reading the next batch.
 */
export function xlsxStream(sheetName: string, columns: readonly ExportColumn[], batches: AsyncIterable<Record<string, unknown>[]>): Readable {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  void (async () => {
    // exceljs (some 20 MB) is loaded with the first workbook.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
    const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
    sheet.addRow(columns.map((c) => c.header)).commit();
    for await (const records of batches) {
      for (const record of records) sheet.addRow(rowOf(columns, record)).commit();
      if (out.writableLength > out.writableHighWaterMark) await once(out, 'drain');
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
