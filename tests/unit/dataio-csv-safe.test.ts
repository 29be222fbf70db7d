import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvSafe, csvSafeValue } from '../../src/features/dataio/server/csv-safe.js';
import { csvStream } from '../../src/features/dataio/server/export-file.js';
import { csvSafe as resultsCsvSafe } from '../../src/features/results/server/results-export.js';

// Issue 29 finding 6: every CSV writer puts a quote before a cell a spreadsheet would run as a
// formula (OWASP: =, +, -, @, and a leading tab or carriage return); plain numbers stay numbers.
// The COPY path, the import report and the audit export are checked through the API
// (tests/api/import-safety.test.ts).

describe('the CSV neutraliser', () => {
  it('prefixes formula starts and leaves other text and plain numbers alone', () => {
    for (const cell of ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tTAB', '\rCR', '=HYPERLINK("http://x","y")', '-cmd|calc']) expect(csvSafe(cell)).toBe(`'${cell}`);
    for (const cell of ['Acme', '', '-5', '+3.5', '1e5', '-1.25E-3', 'a=b', ' =x', "'already"]) expect(csvSafe(cell)).toBe(cell);
    expect(csvSafeValue(-5)).toBe(-5);
    expect(csvSafeValue(true)).toBe(true);
    expect(csvSafeValue(null)).toBe(null);
  });

  it('is applied by the list export stream (PGlite and XLSX-less CSV path), to headers and cells', async () => {
    const columns = [
      { key: 'name', header: '=Header' },
      { key: 'count', header: 'Count' },
    ] as never;
    async function* batches() {
      yield [
        { name: '=cmd', count: -4 },
        { name: 'Plain', count: 2 },
      ];
    }
    let text = '';
    for await (const chunk of csvStream(columns, batches())) text += chunk.toString();
    expect(parse(text.replace(/^\ufeff/, ''))).toEqual([
      ["'=Header", 'Count'],
      ["'=cmd", '-4'],
      ['Plain', '2'],
    ]);
  });

  it('is applied by the results export', () => {
    expect(resultsCsvSafe('=cmd')).toBe("'=cmd");
    expect(resultsCsvSafe('@x')).toBe("'@x");
    expect(resultsCsvSafe(7)).toBe(7);
  });
});
