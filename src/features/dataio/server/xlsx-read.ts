import zlib from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * Reads the first sheet of an XLSX workbook as rows of text, bounded before memory: the ZIP's
 * central directory is read first and every entry's declared size and inflation ratio are checked
 * BEFORE anything is inflated; each entry is then inflated as a stream (zlib on libuv's threads)
 * whose output is counted (a header that lies is caught too) and scanned by a SAX parser
 * (`saxes`), so the row, column, cell-size and shared-string limits stop the read as soon as they
 * are crossed, and no step holds the event loop for more than one inflated chunk.
 *
 * Nothing here knows HTTP: a limit crossed throws {@link XlsxLimitError} (the caller turns it
 * into its 413), a file that is not a readable workbook throws {@link XlsxFormatError}.
 */

/** The limits of one read. */
export interface XlsxLimits {
  /** Data rows after the header row. */
  rows: number;
  /** Columns (a cell beyond this column refuses the file). */
  columns: number;
  /** Characters in one cell (Excel's own limit is 32,767). */
  cellChars: number;
  /** Inflated bytes of `xl/sharedStrings.xml`. */
  sharedStringsBytes: number;
  /** Shared strings. */
  sharedStrings: number;
  /** Inflated bytes of the sheet's XML. */
  sheetBytes: number;
  /** Inflated bytes of any other part read (workbook, relationships, styles). */
  partBytes: number;
  /** Largest inflated / compressed ratio of an entry larger than {@link RATIO_FLOOR}. */
  ratio: number;
  /** Entries in the ZIP. */
  entries: number;
}

export const DEFAULT_XLSX_LIMITS: XlsxLimits = {
  rows: 200_000,
  columns: 256,
  cellChars: 32_767,
  sharedStringsBytes: 64 * 1024 * 1024,
  sharedStrings: 2_000_000,
  sheetBytes: 512 * 1024 * 1024,
  partBytes: 8 * 1024 * 1024,
  ratio: 100,
  entries: 10_000,
};

/** Entries that inflate to less than this are not held to the ratio (small XML parts compress very well). */
export const RATIO_FLOOR = 4 * 1024 * 1024;

/** What limit a workbook crossed: `rows`, `columns`, `cell`, `sharedStrings`, `size` or `ratio`. */
export class XlsxLimitError extends Error {
  constructor(
    readonly limit: 'rows' | 'columns' | 'cell' | 'sharedStrings' | 'size' | 'ratio',
    message: string,
    /** For `rows`: the rows found (or declared) so far. */
    readonly count?: number,
  ) {
    super(message);
  }
}

/** The bytes are not a workbook this reader can read. */
export class XlsxFormatError extends Error {}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The entries of the ZIP's central directory (no ZIP64: a workbook of at most 50 MB never needs it). */
export function zipEntries(bytes: Buffer, limits: Pick<XlsxLimits, 'entries'> = DEFAULT_XLSX_LIMITS): Map<string, ZipEntry> {
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new XlsxFormatError('it is not a ZIP file (no central directory).');
  const count = bytes.readUInt16LE(end + 10);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new XlsxFormatError('ZIP64 workbooks are not supported.');
  if (count > limits.entries) throw new XlsxLimitError('size', `The workbook has ${count} parts.`);
  const entries = new Map<string, ZipEntry>();
  let at = directoryOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw new XlsxFormatError('its ZIP directory is damaged.');
    const method = bytes.readUInt16LE(at + 10);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) throw new XlsxFormatError('its ZIP entries are damaged.');
    const offset = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (offset + compressedSize > bytes.length) throw new XlsxFormatError('its ZIP entries are cut short.');
    entries.set(name.replace(/^\/+/, ''), { name, method, compressedSize, size, offset });
  }
  return entries;
}

/** Refuses an entry by its declared size and ratio, before a byte of it is inflated. */
export function checkDeclared(entry: ZipEntry, cap: number, limits: Pick<XlsxLimits, 'ratio'>, what: XlsxLimitError['limit'] = 'size'): void {
  if (entry.size > cap) throw new XlsxLimitError(what, `${entry.name} would inflate to ${entry.size} bytes (at most ${cap}).`);
  if (entry.size > RATIO_FLOOR && entry.size / Math.max(1, entry.compressedSize) > limits.ratio) {
    throw new XlsxLimitError('ratio', `${entry.name} inflates ${Math.round(entry.size / Math.max(1, entry.compressedSize))} times (at most ${limits.ratio}).`);
  }
  if (entry.method !== 0 && entry.method !== 8) throw new XlsxFormatError(`${entry.name} uses an unknown compression (${entry.method}).`);
}

/**
 * Inflates an entry as a stream and hands its text to `onText` chunk by chunk (each chunk after an
 * event-loop turn). Stops with a limit error once more than `cap` bytes (or more than it declared)
 * come out; `onText` returning true stops the read early.
 */
/**
 * Bytes of XML handed to the parser at a time: 64 KB of a row bomb's tiny rows took the SAX parser
 * 30-40 ms on a loaded machine, and a request needs several turns of the event loop to be answered.
 */
const XML_PIECE = 16 * 1024;

async function streamEntry(bytes: Buffer, entry: ZipEntry, cap: number, onText: (text: string) => boolean | undefined): Promise<void> {
  const data = bytes.subarray(entry.offset, entry.offset + entry.compressedSize);
  const decoder = new TextDecoder('utf-8');
  const most = Math.min(cap, entry.size);
  let total = 0;
  if (entry.method === 0) {
    if (data.length > most) throw new XlsxLimitError('size', `${entry.name} is larger than it declared.`);
    for (let at = 0; at < data.length; at += XML_PIECE) {
      if (onText(decoder.decode(data.subarray(at, at + XML_PIECE), { stream: true }))) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
    onText(decoder.decode());
    return;
  }
  const inflate = zlib.createInflateRaw({ chunkSize: XML_PIECE });
  inflate.end(data);
  // Chunks zlib has buffered come through the iterator as microtasks, with no turn for other
  // requests between them: give one whenever this read has held the event loop for 8 ms.
  let since = performance.now();
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > most) throw new XlsxLimitError('size', `${entry.name} inflates to more than ${most} bytes.`);
      if (onText(decoder.decode(chunk, { stream: true }))) return;
      if (performance.now() - since > 8) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  } catch (error) {
    if (error instanceof XlsxLimitError || error instanceof XlsxFormatError) throw error;
    throw new XlsxFormatError(`${entry.name} cannot be inflated: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    inflate.destroy();
  }
  onText(decoder.decode());
}

/** A SAX scan of an entry: `handlers` see local names (any `x:` prefix dropped). */
async function scan(
  bytes: Buffer,
  entry: ZipEntry,
  cap: number,
  handlers: { open?(name: string, attributes: Record<string, string>): void; close?(name: string): void; text?(text: string): void; done?(): boolean },
): Promise<void> {
  const parser = new SaxesParser();
  let failure: unknown;
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  parser.on('opentag', (tag) => handlers.open?.(local(tag.name), (tag as SaxesTagPlain).attributes as Record<string, string>));
  parser.on('closetag', (tag) => handlers.close?.(local(tag.name)));
  if (handlers.text) {
    const onText = handlers.text;
    parser.on('text', (text) => onText(text));
    parser.on('cdata', (text) => onText(text));
  }
  parser.on('error', (error) => {
    failure ??= error;
  });
  await streamEntry(bytes, entry, cap, (text) => {
    try {
      parser.write(text);
    } catch (error) {
      failure ??= error;
    }
    if (failure) throw failure instanceof XlsxLimitError ? failure : new XlsxFormatError(`${entry.name}: ${String((failure as Error).message ?? failure)}`);
    return handlers.done?.();
  });
}

/** The column index (0 = A) of a cell reference such as `BC12`, or undefined. */
export function columnOf(ref: string | undefined): number | undefined {
  if (!ref) return undefined;
  let column = 0;
  let i = 0;
  for (; i < ref.length && i < 4; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return i === 0 ? undefined : column - 1;
}

/** Excel's built-in number formats that show dates or times. */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** Whether a number format code shows a date or time (its quoted and bracketed parts ignored). */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

const resolvePart = (base: string, target: string) => {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.') parts.push(piece);
  }
  return parts.join('/');
};

/** An Excel serial day as the text a person sees: an ISO date, or an ISO date-time when it has a time. */
function serialDate(serial: number, date1904: boolean): string {
  const ms = Math.round(((date1904 ? serial + 1462 : serial) - 25569) * 86_400_000);
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return String(serial);
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/**
 * The first sheet's rows (blank rows skipped, every cell as text: shared and inline strings,
 * numbers as JavaScript writes them, dates by their style as ISO dates, booleans as true/false,
 * formulas by their cached result, errors as empty). At most `limits.rows + 1` rows (the header
 * and the data rows): one more refuses the file.
 */
export async function readXlsx(bytes: Buffer, limits: XlsxLimits = DEFAULT_XLSX_LIMITS): Promise<string[][]> {
  const entries = zipEntries(bytes, limits);
  const part = (name: string) => entries.get(name);
  const readSmall = async (name: string, handlers: Parameters<typeof scan>[3]) => {
    const entry = part(name);
    if (!entry) return false;
    checkDeclared(entry, limits.partBytes, limits);
    await scan(bytes, entry, limits.partBytes, handlers);
    return true;
  };

  // The workbook: its first sheet's relationship id and its date system.
  let firstSheet: string | undefined;
  let date1904 = false;
  const found = await readSmall('xl/workbook.xml', {
    open(name, attributes) {
      if (name === 'workbookPr') date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
      if (name === 'sheet' && firstSheet === undefined) {
        firstSheet = attributes['r:id'] ?? Object.entries(attributes).find(([key]) => key.endsWith(':id'))?.[1];
      }
    },
  });
  if (!found || firstSheet === undefined) throw new XlsxFormatError('it has no workbook part (is it an XLSX file?).');

  const targets = new Map<string, { type: string; target: string }>();
  await readSmall('xl/_rels/workbook.xml.rels', {
    open(name, attributes) {
      if (name === 'Relationship' && attributes.Id && attributes.Target) targets.set(attributes.Id, { type: attributes.Type ?? '', target: attributes.Target });
    },
  });
  const byType = (suffix: string) => [...targets.values()].find((rel) => rel.type.endsWith(suffix));
  const sheetTarget = targets.get(firstSheet);
  const sheetPath = sheetTarget ? resolvePart('xl/workbook.xml', sheetTarget.target) : 'xl/worksheets/sheet1.xml';
  const sharedPath = resolvePart('xl/workbook.xml', byType('/sharedStrings')?.target ?? 'sharedStrings.xml');
  const stylesPath = resolvePart('xl/workbook.xml', byType('/styles')?.target ?? 'styles.xml');
  const sheet = part(sheetPath);
  if (!sheet) throw new XlsxFormatError('its first sheet is missing.');
  // Both big parts are judged before either is inflated.
  checkDeclared(sheet, limits.sheetBytes, limits);
  const sharedEntry = part(sharedPath);
  if (sharedEntry) checkDeclared(sharedEntry, limits.sharedStringsBytes, limits, 'sharedStrings');

  // Styles: which cell formats show dates.
  const customFormats = new Map<number, string>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  await readSmall(stylesPath, {
    open(name, attributes) {
      if (name === 'numFmt') customFormats.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfFormats.push(Number(attributes.numFmtId ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  const dateStyles = xfFormats.map((id) => (customFormats.has(id) ? isDateFormat(customFormats.get(id)!) : DATE_FORMAT_IDS.has(id)));

  // Shared strings: each <si>'s text runs (<t> outside phonetic <rPh>), each at most cellChars.
  const shared: string[] = [];
  if (sharedEntry) {
    let inItem = false;
    let inText = false;
    let phonetic = 0;
    let current = '';
    await scan(bytes, sharedEntry, limits.sharedStringsBytes, {
      open(name) {
        if (name === 'si') {
          inItem = true;
          current = '';
        } else if (name === 't' && inItem && phonetic === 0) inText = true;
        else if (name === 'rPh') phonetic++;
      },
      close(name) {
        if (name === 't') inText = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'si') {
          inItem = false;
          if (shared.length >= limits.sharedStrings)
            throw new XlsxLimitError('sharedStrings', `The workbook has more than ${limits.sharedStrings} shared strings.`);
          shared.push(current);
        }
      },
      text(text) {
        if (!inText) return;
        if (current.length + text.length > limits.cellChars) throw new XlsxLimitError('cell', `A cell has more than ${limits.cellChars} characters.`);
        current += text;
      },
    });
  }

  // The sheet: rows of cells, refused at the first row, column or cell past a limit.
  const rows: string[][] = [];
  let row: string[] | null = null;
  let filled = false;
  let cell: { column: number; type: string; style: number } | null = null;
  let nextColumn = 0;
  let value = '';
  let inValue = false;
  let inInline = false;
  await scan(bytes, sheet, limits.sheetBytes, {
    open(name, attributes) {
      if (name === 'dimension') {
        const last = /(\d+)$/.exec(attributes.ref ?? '')?.[1];
        if (last && Number(last) - 1 > limits.rows + 1) {
          throw new XlsxLimitError('rows', `The sheet declares ${Number(last)} rows.`, Number(last) - 1);
        }
      } else if (name === 'row') {
        row = [];
        filled = false;
        nextColumn = 0;
      } else if (name === 'c' && row) {
        const column = columnOf(attributes.r) ?? nextColumn;
        if (column >= limits.columns) throw new XlsxLimitError('columns', `A cell is in column ${column + 1} (at most ${limits.columns}).`);
        cell = { column, type: attributes.t ?? 'n', style: Number(attributes.s ?? 0) };
        nextColumn = column + 1;
        value = '';
      } else if (cell && (name === 'v' || (name === 't' && inInline))) inValue = true;
      else if (cell && name === 'is') inInline = true;
      else if (name === 'rPh') inValue = false;
    },
    close(name) {
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'is') inInline = false;
      else if (name === 'c' && cell && row) {
        const text = cellValue(cell.type, cell.style, value);
        if (text !== '') {
          while (row.length < cell.column) row.push('');
          row[cell.column] = text;
          filled = true;
        }
        cell = null;
      } else if (name === 'row' && row) {
        if (filled && row.some((text) => text.trim() !== '')) {
          rows.push(row);
          if (rows.length - 1 > limits.rows) throw new XlsxLimitError('rows', `The sheet has more than ${limits.rows} rows.`, rows.length - 1);
        }
        row = null;
      }
    },
    text(text) {
      if (!inValue) return;
      if (value.length + text.length > limits.cellChars) throw new XlsxLimitError('cell', `A cell has more than ${limits.cellChars} characters.`);
      value += text;
    },
  });
  const width = rows.reduce((most, r) => Math.max(most, r.length), 0);
  for (const r of rows) while (r.length < width) r.push('');
  return rows;

  function cellValue(type: string, style: number, raw: string): string {
    switch (type) {
      case 's':
        return shared[Number(raw)] ?? '';
      case 'inlineStr':
      case 'str':
      case 'd':
        return raw;
      case 'b':
        return raw === '1' || raw === 'true' ? 'true' : raw === '' ? '' : 'false';
      case 'e':
        return '';
      default: {
        if (raw.trim() === '') return '';
        const number = Number(raw);
        if (Number.isNaN(number)) return raw;
        return dateStyles[style] ? serialDate(number, date1904) : String(number);
      }
    }
  }
}
