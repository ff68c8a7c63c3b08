/**
 * The alias sheet worker's code (plain CommonJS, run with `new Worker(code, { eval: true })`): a source string
 * survives both the Remix server bundle and the test runner, where a worker file beside the module would not.
 * It answers `{ rows, numbers }` (at most `keepRows` rows of the first `columns` cells, and each row's number in the
 * sheet) or `{ refused }`.
 *
 * For an .xlsx it first inflates every part the main thread listed from the zip's directory, each with a bound
 * on its real output (zlib's maxOutputLength): a part that inflates past its declared size, or all of them past
 * `maxUnpackedBytes`, is refused there, before exceljs is even loaded. Then it counts the sheets' rows, and only
 * then lets exceljs read the file. The heap limit and the deadline set by the main thread cover the rest.
 */
export const ALIAS_SHEET_WORKER = String.raw`
"use strict";
const { parentPort, workerData: w } = require("node:worker_threads");
const zlib = require("node:zlib");
const { Readable } = require("node:stream");
for (const k of ["log", "info", "warn", "error", "debug"]) console[k] = () => {};
const data = Buffer.from(w.bytes.buffer, w.bytes.byteOffset, w.bytes.byteLength);
const ROW = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;

function countMatches(text, re) {
  let n = 0;
  re.lastIndex = 0;
  while (re.exec(text)) n++;
  return n;
}

/** Inflates each listed part within its declared size and the overall budget: null, or why not. */
function checkParts() {
  let budget = w.maxUnpackedBytes;
  let rows = 0;
  for (const e of w.entries) {
    if (e.flags & 1) return "unreadable"; // encrypted
    if (e.localOffset + 30 > data.length || data.readUInt32LE(e.localOffset) !== 0x04034b50) return "unreadable";
    const start = e.localOffset + 30 + data.readUInt16LE(e.localOffset + 26) + data.readUInt16LE(e.localOffset + 28);
    if (start + e.compressedSize > data.length) return "unreadable";
    const packed = data.subarray(start, start + e.compressedSize);
    let out;
    if (e.method === 0) out = packed;
    else if (e.method === 8) {
      try {
        out = zlib.inflateRawSync(packed, { maxOutputLength: Math.max(1, Math.min(e.size, budget)) });
      } catch (error) {
        return error && error.code === "ERR_BUFFER_TOO_LARGE" ? "too_complex" : "unreadable";
      }
    } else return "unreadable";
    if (out.length > e.size || out.length > budget) return "too_complex";
    if (out.length !== e.size) return "unreadable";
    budget -= out.length;
    if (WORKSHEET.test(e.name)) {
      rows += countMatches(out.toString("latin1"), ROW);
      if (rows > w.maxRowElements) return "too_many_rows";
    }
  }
  return null;
}

function countCsvLines() {
  let n = 0;
  for (const line of data.toString("utf8").split(/\r\n|\n|\r/)) if (line.trim()) n++;
  return n;
}

async function main() {
  if (w.kind === "xlsx") {
    const refused = checkParts();
    if (refused) return { refused };
  } else if (countCsvLines() > w.maxRowElements) return { refused: "too_many_rows" };
  const Excel = require(w.exceljs);
  const workbook = new Excel.Workbook();
  let sheet;
  if (w.kind === "csv") sheet = await workbook.csv.read(Readable.from(data));
  else {
    await workbook.xlsx.load(data);
    sheet = workbook.worksheets[0];
  }
  const rows = [];
  const numbers = [];
  if (sheet) {
    sheet.eachRow({ includeEmpty: false }, (row) => {
      if (rows.length >= w.keepRows) return;
      const cell = (i) => {
        const v = row.getCell(i).value;
        if (v === null || v === undefined) return "";
        if (typeof v === "object" && "text" in v) return String(v.text);
        if (typeof v === "object" && "result" in v) return v.result === undefined || v.result === null ? "" : String(v.result);
        if (typeof v === "object" && "richText" in v && Array.isArray(v.richText)) return v.richText.map((r) => r.text).join("");
        return String(v);
      };
      const cells = [];
      for (let i = 1; i <= w.columns; i++) cells.push(cell(i));
      rows.push(cells);
      numbers.push(row.number);
    });
  }
  return { rows, numbers };
}

main().then(
  (answer) => parentPort.postMessage(answer),
  () => parentPort.postMessage({ refused: "unreadable" }),
);
`;
