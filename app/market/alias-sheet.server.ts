import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { ALIAS_SHEET_WORKER } from "./alias-sheet-worker";

/**
 * Licence alias sheets come from members' uploads, so they are read as hostile: an .xlsx is a zip, and a 1 MB
 * zip can inflate to hundreds of megabytes. Before anything is inflated the upload's size and the zip's own
 * directory are checked (entries, declared sizes, compression ratio); the parse then runs in a worker thread
 * with a heap limit and a deadline, which inflates each part with a bound on its real output (a directory can
 * lie) and counts the rows before exceljs sees the file. The main thread never inflates or parses a sheet.
 */
export const ALIAS_SHEET_LIMITS = {
  /** The uploaded file. */
  maxBytes: 1_000_000,
  /** All parts of an .xlsx together, inflated. */
  maxUnpackedBytes: 20 * 1024 * 1024,
  /** Inflated to compressed, for any part of more than 1 MB inflated (ordinary sheets stay well under 20). */
  maxRatio: 100,
  maxEntries: 200,
  /** Rows after the header. */
  maxRows: 1_000,
  /** The worker's old-generation heap, and how long it may take. */
  heapMb: 96,
  timeoutMs: 5_000,
  /** Sheets read at the same time in this process; more are asked to come back. */
  concurrency: 2,
};
export type AliasSheetLimits = typeof ALIAS_SHEET_LIMITS;

/** How much of a form post carrying a sheet is read (app/utils/multipart.server.ts): the file and a few small fields. */
export const ALIAS_SHEET_FORM = {
  maxFileBytes: ALIAS_SHEET_LIMITS.maxBytes,
  maxBodyBytes: ALIAS_SHEET_LIMITS.maxBytes + 64 * 1024,
  maxParts: 8,
};

/** Why a sheet was not read; each has a message (licenses.upload.<reason>). */
export type SheetRefusal = "unreadable" | "too_large" | "too_complex" | "too_many_rows" | "busy";

export class SheetRefused extends Error {
  constructor(readonly reason: SheetRefusal) {
    super(`alias sheet refused: ${reason}`);
  }
}

export interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/**
 * The entries a zip's central directory declares, read without inflating anything; null when the bytes are not
 * a zip this reader takes (no end record, zip64, split archives, a directory outside the file).
 */
export function zipDirectory(data: Uint8Array, maxEntries = Number.POSITIVE_INFINITY): ZipEntry[] | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (view.getUint16(end + 4, true) !== 0 || count === 0xffff || offset === 0xffffffff || offset + size > end) return null;
  if (count > maxEntries) return null;
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > end || view.getUint32(p, true) !== 0x02014b50) return null;
    const nameLength = view.getUint16(p + 28, true);
    const next = p + 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    if (next > end) return null;
    entries.push({
      name: Buffer.from(data.buffer, data.byteOffset + p + 46, nameLength).toString("utf8"),
      flags: view.getUint16(p + 8, true),
      method: view.getUint16(p + 10, true),
      compressedSize: view.getUint32(p + 20, true),
      size: view.getUint32(p + 24, true),
      localOffset: view.getUint32(p + 42, true),
    });
    p = next;
  }
  return entries;
}

/** What the directory alone tells about an .xlsx: refused before anything is inflated, or its entries. */
export function checkXlsxDirectory(data: Uint8Array, limits: AliasSheetLimits = ALIAS_SHEET_LIMITS): ZipEntry[] | SheetRefusal {
  const entries = zipDirectory(data, limits.maxEntries);
  if (!entries) return "unreadable";
  let total = 0;
  for (const e of entries) {
    total += e.size;
    if (total > limits.maxUnpackedBytes) return "too_complex";
    if (e.size > 1024 * 1024 && e.size > e.compressedSize * limits.maxRatio) return "too_complex";
  }
  return entries;
}

let running = 0;
const exceljsPath = () => createRequire(import.meta.url).resolve("exceljs");

type WorkerAnswer = { rows: string[][]; numbers: number[] } | { refused: SheetRefusal };

/** Parses in a worker with a heap limit and a deadline; whatever goes wrong there is a refusal, never a crash. */
function parseInWorker(
  kind: "csv" | "xlsx",
  data: Uint8Array,
  entries: ZipEntry[],
  limits: AliasSheetLimits,
  columns: number,
): Promise<WorkerAnswer> {
  const bytes = new Uint8Array(data); // a copy the worker can own
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(ALIAS_SHEET_WORKER, {
      eval: true,
      workerData: {
        kind,
        bytes,
        entries,
        exceljs: exceljsPath(),
        columns,
        maxUnpackedBytes: limits.maxUnpackedBytes,
        // Rows the parse may meet: the cap, its header, and as many again for empty or styled-only rows.
        maxRowElements: 2 * (limits.maxRows + 1),
        // Enough to tell "over the cap" after a header is dropped.
        keepRows: limits.maxRows + 2,
      },
      transferList: [bytes.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    const finish = (answer: WorkerAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      resolve(answer);
    };
    const deadline = setTimeout(() => finish({ refused: "too_complex" }), limits.timeoutMs);
    worker.on("message", (answer: WorkerAnswer) => finish(answer));
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or anything else the worker could not survive.
    worker.on("error", (error: NodeJS.ErrnoException) =>
      finish({ refused: error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "too_complex" : "unreadable" }),
    );
    worker.on("exit", () => finish({ refused: "too_complex" }));
  });
}

const PRODUCT_KEY = /^[A-Z0-9]+(-[A-Z0-9]+)+$/i;

/**
 * Reads an uploaded sheet (.xlsx or .csv) as hostile input, with the checks above: the first `columns` cells of each
 * non-empty row as text, and each row's number in the sheet. Throws SheetRefused. Used by the licence alias sheet
 * and the console's catalog import.
 */
export async function readSheet(
  fileName: string,
  data: Uint8Array,
  limits: AliasSheetLimits = ALIAS_SHEET_LIMITS,
  columns = 2,
): Promise<{ rows: string[][]; numbers: number[] }> {
  const kind = /\.csv$/i.test(fileName) ? "csv" : /\.xlsx$/i.test(fileName) ? "xlsx" : null;
  if (!kind || data.length === 0) throw new SheetRefused("unreadable");
  if (data.length > limits.maxBytes) throw new SheetRefused("too_large");
  let entries: ZipEntry[] = [];
  if (kind === "xlsx") {
    const checked = checkXlsxDirectory(data, limits);
    if (typeof checked === "string") throw new SheetRefused(checked);
    entries = checked;
  }
  if (running >= limits.concurrency) throw new SheetRefused("busy");
  running++;
  let answer: WorkerAnswer;
  try {
    answer = await parseInWorker(kind, data, entries, limits, columns);
  } finally {
    running--;
  }
  if ("refused" in answer) throw new SheetRefused(answer.refused);
  return answer;
}

/**
 * Reads a licence alias sheet: .xlsx or .csv, first column the product key, second the alias; a first row
 * that does not look like a product key is taken as a header and skipped. Throws SheetRefused.
 */
export async function readAliasSheet(
  fileName: string,
  data: Uint8Array,
  limits: AliasSheetLimits = ALIAS_SHEET_LIMITS,
): Promise<{ serial: string; alias: string }[]> {
  const sheet = await readSheet(fileName, data, limits, 2);
  const rows = sheet.rows.map(([serial, alias]) => ({ serial: serial.trim(), alias: alias.trim() }));
  if (rows.length && !PRODUCT_KEY.test(rows[0].serial)) rows.shift();
  if (rows.length > limits.maxRows) throw new SheetRefused("too_many_rows");
  return rows;
}
