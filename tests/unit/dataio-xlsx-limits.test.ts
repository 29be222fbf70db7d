import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { isUtf16, parseImportFile } from '../../src/features/dataio/server/import-file.js';
import { DEFAULT_XLSX_LIMITS, isDateFormat, readXlsx, XlsxLimitError } from '../../src/features/dataio/server/xlsx-read.js';
import { rowBombXlsx, sharedStringBombXlsx, wideXlsx, workbook } from '../helpers/xlsx-bombs.js';

// Issue 29 findings 3 and 4: the XLSX reader enforces its limits while it reads (declared sizes and
// ratios before inflating), reads what exceljs writes, and the CSV parser gives other work turns.

const limitOf = async (bytes: Buffer, limits = DEFAULT_XLSX_LIMITS) => {
  try {
    await readXlsx(bytes, limits);
    return 'read';
  } catch (error) {
    if (error instanceof XlsxLimitError) return error.limit;
    throw error;
  }
};

describe('the XLSX reader', () => {
  it('reads a workbook exceljs writes: shared strings, numbers, booleans, dates, formulas, blank rows and cells', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('First');
    book.addWorksheet('Second').addRow(['not read']);
    sheet.addRow(['Name', 'Count', 'Active', 'Since', 'Total']);
    sheet.addRow(['Ana & Co', 12.5, true, new Date(Date.UTC(2024, 1, 29)), { formula: 'B2*2', result: 25 }]);
    sheet.addRow([]);
    sheet.addRow(['Rich', null, false, new Date(Date.UTC(2024, 0, 2, 10, 30)), null]);
    sheet.getCell('A4').value = { richText: [{ text: 'Ri' }, { text: 'ch' }] };
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    expect(await readXlsx(bytes)).toEqual([
      ['Name', 'Count', 'Active', 'Since', 'Total'],
      ['Ana & Co', '12.5', 'true', '2024-02-29', '25'],
      ['Rich', '', 'false', '2024-01-02T10:30:00.000Z', ''],
    ]);
    expect((await parseImportFile(bytes)).headers).toEqual(['Name', 'Count', 'Active', 'Since', 'Total']);
  });

  it('refuses by declared size and ratio before inflating, and by counted bytes when a header lies', async () => {
    expect(await limitOf(sharedStringBombXlsx(80 * 1024 * 1024))).toBe('sharedStrings');
    expect(await limitOf(rowBombXlsx(300_000))).toBe('ratio');
    // The same bomb with the ratio check off is still refused at its 200,001st row, without reading the rest.
    expect(await limitOf(rowBombXlsx(300_000), { ...DEFAULT_XLSX_LIMITS, ratio: 1e9 })).toBe('rows');
    // A central directory that declares less than the entry inflates to.
    const honest = sharedStringBombXlsx(5 * 1024 * 1024);
    const lying = Buffer.from(honest);
    const directory = lying.lastIndexOf(Buffer.from('xl/sharedStrings.xml')) - 46;
    lying.writeUInt32LE(1024, directory + 24);
    expect(await limitOf(lying)).toBe('size');
  });

  it('refuses a cell past the column limit and a cell past the character limit', async () => {
    expect(await limitOf(wideXlsx({ column: 'IW' }))).toBe('columns');
    expect(await limitOf(wideXlsx({ column: 'IV' }))).toBe('read');
    expect(await limitOf(wideXlsx({ cellChars: 32_768 }))).toBe('cell');
    expect(await limitOf(wideXlsx({ cellChars: 32_767 }))).toBe('read');
  });

  it('refuses more shared strings than allowed, and reads a sheet whose dimension declares too many rows no further', async () => {
    const shared = Buffer.from(`<sst xmlns="x">${'<si><t>a</t></si>'.repeat(11)}</sst>`);
    const sheet = Buffer.from('<worksheet><sheetData><row><c t="s"><v>0</v></c></row></sheetData></worksheet>');
    expect(await limitOf(workbook(sheet, shared), { ...DEFAULT_XLSX_LIMITS, sharedStrings: 10 })).toBe('sharedStrings');
    const declared = Buffer.from('<worksheet><dimension ref="A1:B900000"/><sheetData></sheetData></worksheet>');
    expect(await limitOf(workbook(declared))).toBe('rows');
  });

  it('knows date formats', () => {
    expect(isDateFormat('dd/mm/yyyy')).toBe(true);
    expect(isDateFormat('[$-409]h:mm AM/PM')).toBe(true);
    expect(isDateFormat('#,##0.00')).toBe(false);
    expect(isDateFormat('"Days: "0')).toBe(false);
  });
});

describe('the CSV parser', () => {
  it('gives other work turns while it parses a large file', async () => {
    const file = Buffer.from(`Name,Note\n${'Some Company,a note of a few words\n'.repeat(200_000)}`);
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const parsed = await parseImportFile(file);
    running = false;
    expect(parsed.rows).toHaveLength(200_000);
    // 7 MB in 128 KB pieces: at least one turn per piece.
    expect(turns).toBeGreaterThanOrEqual(40);
  });

  it('tells UTF-16 from UTF-8', () => {
    expect(isUtf16(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name\r\n', 'utf16le')]))).toBe(true);
    expect(isUtf16(Buffer.from('Name\r\nAcme\r\n', 'utf16le'))).toBe(true);
    expect(isUtf16(Buffer.from('Name\r\nAcme\r\n', 'utf8'))).toBe(false);
    expect(isUtf16(Buffer.from('Name\r\nA\u0000cme\r\n', 'utf8'))).toBe(false);
  });
});
