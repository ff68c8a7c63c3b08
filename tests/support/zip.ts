import zlib from "node:zlib";

/**
 * Writes .zip files (and so .xlsx workbooks) byte by byte, for tests that need archives no library would make:
 * a part that inflates to hundreds of megabytes, or one whose central directory lies about its size.
 */
export interface ZipPart {
  name: string;
  /** The part's text, deflated here. */
  text?: string;
  /** Or the part already deflated (raw deflate), with its real size and CRC-32. */
  deflated?: { data: Buffer; size: number; crc: number };
  /** Size written in the headers instead of the real one (a lying archive). */
  declaredSize?: number;
}

export function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const raw = part.text !== undefined ? Buffer.from(part.text) : null;
    const body = part.deflated ?? {
      data: zlib.deflateRawSync(raw as Buffer),
      size: (raw as Buffer).length,
      crc: zlib.crc32(raw as Buffer),
    };
    const size = part.declaredSize ?? body.size;
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(body.crc >>> 0, 14);
    local.writeUInt32LE(body.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(body.crc >>> 0, 16);
    entry.writeUInt32LE(body.data.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, body.data);
    central.push(entry, name);
    offset += local.length + name.length + body.data.length;
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

/** Deflates `unit` repeated `times` times without ever holding the whole text (a zip bomb's payload). */
export async function deflateRepeated(head: string, unit: string, times: number, tail: string) {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on("end", resolve).on("error", reject));
  let crc = zlib.crc32(head);
  let size = Buffer.byteLength(head);
  deflate.write(head);
  const block = Buffer.from(unit.repeat(Math.max(1, Math.floor(1_048_576 / unit.length))));
  const perBlock = block.length / Buffer.byteLength(unit);
  for (let written = 0; written < times; written += perBlock) {
    const chunk = written + perBlock <= times ? block : Buffer.from(unit.repeat(times - written));
    crc = zlib.crc32(chunk, crc);
    size += chunk.length;
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  crc = zlib.crc32(tail, crc);
  size += Buffer.byteLength(tail);
  deflate.end(tail);
  await done;
  return { data: Buffer.concat(out), size, crc };
}

/** The smallest workbook Excel and exceljs open, with `sheet` as its first worksheet's XML. */
export function xlsxOf(sheet: Omit<ZipPart, "name">): Buffer {
  return zipOf([
    {
      name: "[Content_Types].xml",
      text:
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        "</Types>",
    },
    {
      name: "_rels/.rels",
      text:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        "</Relationships>",
    },
    {
      name: "xl/workbook.xml",
      text:
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
        '<sheet name="aliases" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      text:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        "</Relationships>",
    },
    { name: "xl/worksheets/sheet1.xml", ...sheet },
  ]);
}

export const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = "</sheetData></worksheet>";
export const sheetRow = (n: number, serial: string, alias: string) =>
  `<row r="${n}"><c r="A${n}" t="inlineStr"><is><t>${serial}</t></is></c><c r="B${n}" t="inlineStr"><is><t>${alias}</t></is></c></row>`;
