import zlib from 'node:zlib';

/**
 * Hand-made XLSX workbooks for the import-safety tests and bench: a minimal ZIP (deflated parts,
 * real sizes and CRCs in the central directory) holding one sheet, so a test can build a row bomb,
 * a shared-string bomb or a sheet past the column and cell limits in a few kilobytes.
 */

interface Part {
  name: string;
  /** The part's bytes, or a generator of pieces (a bomb too large to hold twice). */
  data: Buffer | (() => Iterable<Buffer>);
}

/** Deflates the pieces one after another (the bomb never sits in memory whole), counting size and CRC. */
function deflatePieces(pieces: Iterable<Buffer>): { compressed: Buffer; size: number; crc: number } {
  const chunks: Buffer[] = [];
  let size = 0;
  let crc = 0;
  const deflate = zlib.deflateRawSync;
  // One stream in sync steps: zlib's sync API has no streaming, so the repeated pieces are deflated
  // as one buffer per megabyte (a bomb compresses each megabyte to a few hundred bytes).
  let pending: Buffer[] = [];
  let pendingLength = 0;
  const flush = (last: boolean) => {
    if (pendingLength === 0 && !last) return;
    const block = Buffer.concat(pending);
    pending = [];
    pendingLength = 0;
    chunks.push(block);
  };
  for (const piece of pieces) {
    size += piece.length;
    crc = zlib.crc32(piece, crc);
    pending.push(piece);
    pendingLength += piece.length;
    if (pendingLength >= 16 * 1024 * 1024) flush(false);
  }
  flush(true);
  // The blocks are deflated together through one deflate stream so the result is a single raw stream.
  const compressed = deflateConcat(chunks, deflate);
  return { compressed, size, crc };
}

function deflateConcat(blocks: Buffer[], deflate: typeof zlib.deflateRawSync): Buffer {
  if (blocks.length === 1) return deflate(blocks[0]!, { level: 9 });
  // Each block but the last ends with a sync flush (not final), so the concatenation is one valid stream.
  const out: Buffer[] = [];
  blocks.forEach((block, i) => {
    const last = i === blocks.length - 1;
    const part = deflate(block, { level: 9, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH });
    out.push(part);
  });
  return Buffer.concat(out);
}

/** A ZIP of the parts (method 8), as Excel would write it, with true sizes. */
export function zip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const { compressed, size, crc } = deflatePieces(typeof part.data === 'function' ? part.data() : [part.data]);
    const name = Buffer.from(part.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(compressed.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook whose first sheet is `sheet` (XML text or pieces), with `shared` as its shared strings part. */
export function workbook(sheet: Part['data'], shared?: Part['data']): Buffer {
  const xml = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${text}`, 'utf8');
  return zip([
    {
      name: '[Content_Types].xml',
      data: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: xml(`<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
    ...(shared ? [{ name: 'xl/sharedStrings.xml', data: shared }] : []),
  ]);
}

const sheetHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}"><sheetData>`;
const sheetTail = '</sheetData></worksheet>';

/**
 * A row bomb: a header row, then `rows` rows. Identical rows without row numbers compress hundreds
 * of times (refused by the ratio); `numbered` rows (`r="…"` on rows and cells, a number per row, as
 * Excel writes them) compress about as a real sheet does, so only the row limit stops them.
 */
export function rowBombXlsx(rows: number, options: { numbered?: boolean } = {}): Buffer {
  return workbook(function* () {
    yield Buffer.from(`${sheetHead}<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>`);
    if (options.numbered) {
      for (let n = 0; n < rows; n += 10_000) {
        let text = '';
        for (let r = n + 2; r < Math.min(rows, n + 10_000) + 2; r++) text += `<row r="${r}"><c r="A${r}"><v>${(r * 7919) % 100_003}</v></c></row>`;
        yield Buffer.from(text);
      }
    } else {
      const row = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';
      const block = Buffer.from(row.repeat(10_000));
      for (let n = 0; n < rows; n += 10_000) yield n + 10_000 <= rows ? block : Buffer.from(row.repeat(rows - n));
    }
    yield Buffer.from(sheetTail);
  });
}

/** A shared-string bomb: one shared string of `bytes` characters, used by one cell. */
export function sharedStringBombXlsx(bytes: number): Buffer {
  const sheet = Buffer.from(
    `${sheetHead}<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>${sheetTail}`,
  );
  return workbook(sheet, function* () {
    yield Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${NS}" count="1" uniqueCount="1"><si><t>`);
    const block = Buffer.alloc(1024 * 1024, 'A');
    for (let n = 0; n < bytes; n += block.length) yield n + block.length <= bytes ? block : block.subarray(0, bytes - n);
    yield Buffer.from('</t></si></sst>');
  });
}

/** A small sheet with one cell at `column` (letters), or one cell of `cellChars` characters. */
export function wideXlsx(options: { column?: string; cellChars?: number }): Buffer {
  const cell = options.column
    ? `<c r="${options.column}2" t="inlineStr"><is><t>far</t></is></c>`
    : `<c r="A2" t="inlineStr"><is><t>${'x'.repeat(options.cellChars ?? 1)}</t></is></c>`;
  return workbook(Buffer.from(`${sheetHead}<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row><row r="2">${cell}</row>${sheetTail}`));
}
